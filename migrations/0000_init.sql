CREATE TABLE `messages` (
	`simulation_id` text NOT NULL,
	`idx` integer NOT NULL,
	`role` text NOT NULL,
	`body` text NOT NULL,
	PRIMARY KEY(`simulation_id`, `idx`)
);
--> statement-breakpoint
CREATE TABLE `runs` (
	`id` text PRIMARY KEY NOT NULL,
	`status` text NOT NULL,
	`config` text NOT NULL,
	`total` integer NOT NULL,
	`schedule_id` text,
	`idempotency_key` text,
	`request_hash` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `runs_idempotency_key` ON `runs` (`idempotency_key`);--> statement-breakpoint
CREATE INDEX `runs_created_at` ON `runs` (`created_at`);--> statement-breakpoint
CREATE TABLE `schedules` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`interval_minutes` integer NOT NULL,
	`enabled` integer NOT NULL,
	`run_config` text NOT NULL,
	`next_run_at` text NOT NULL,
	`last_run_at` text,
	`last_run_id` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `schedules_due` ON `schedules` (`enabled`,`next_run_at`);--> statement-breakpoint
CREATE TABLE `simulations` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`run_id` text NOT NULL,
	`task_id` text NOT NULL,
	`trial` integer NOT NULL,
	`termination_reason` text NOT NULL,
	`reward` real,
	`agent_cost` real,
	`duration` real NOT NULL,
	`record` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `simulations_id` ON `simulations` (`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `simulations_episode` ON `simulations` (`run_id`,`task_id`,`trial`);