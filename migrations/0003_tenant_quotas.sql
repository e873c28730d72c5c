CREATE TABLE `tenant_quotas` (
	`tenant_id` text PRIMARY KEY NOT NULL,
	`episodes_in_flight` integer,
	`episodes_per_day` integer,
	`schedules` integer,
	`usd_per_day` real,
	`updated_at` text NOT NULL
);
