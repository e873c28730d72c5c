ALTER TABLE `runs` ADD `error` text;--> statement-breakpoint
ALTER TABLE `schedules` ADD `last_error` text;