ALTER TABLE `runs` ADD `agent_headers_ciphertext` text;--> statement-breakpoint
ALTER TABLE `schedules` ADD `agent_headers_ciphertext` text;