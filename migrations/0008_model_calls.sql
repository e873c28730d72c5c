CREATE TABLE `model_calls` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`run_id` text,
	`model` text NOT NULL,
	`reserved_usd` real NOT NULL,
	`cost_usd` real,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `model_calls_tenant_created_at` ON `model_calls` (`tenant_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `model_calls_run` ON `model_calls` (`run_id`);