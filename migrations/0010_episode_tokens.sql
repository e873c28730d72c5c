CREATE TABLE `episode_tokens` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`episode_id` text NOT NULL,
	`created_at` text NOT NULL
);
