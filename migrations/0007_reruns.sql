CREATE TABLE `reruns` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`run_id` text NOT NULL,
	`episodes` integer NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `reruns_tenant_created_at` ON `reruns` (`tenant_id`,`created_at`);