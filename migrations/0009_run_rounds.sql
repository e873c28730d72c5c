ALTER TABLE `runs` ADD `rounds` text;--> statement-breakpoint
ALTER TABLE `runs` ADD `stop_reason` text;