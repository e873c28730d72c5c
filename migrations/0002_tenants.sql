CREATE TABLE `api_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`name` text NOT NULL,
	`key_hash` text NOT NULL,
	`prefix` text NOT NULL,
	`created_at` text NOT NULL,
	`revoked_at` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_key_hash` ON `api_keys` (`key_hash`);--> statement-breakpoint
CREATE INDEX `api_keys_tenant` ON `api_keys` (`tenant_id`);--> statement-breakpoint
ALTER TABLE `runs` ADD `tenant_id` text DEFAULT 'operator' NOT NULL;--> statement-breakpoint
CREATE INDEX `runs_tenant_created_at` ON `runs` (`tenant_id`,`created_at`);--> statement-breakpoint
ALTER TABLE `schedules` ADD `tenant_id` text DEFAULT 'operator' NOT NULL;