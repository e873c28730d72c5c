CREATE TABLE `provider_credentials` (
	`tenant_id` text NOT NULL,
	`provider` text NOT NULL,
	`base_url` text,
	`key_ciphertext` text NOT NULL,
	`updated_at` text NOT NULL,
	PRIMARY KEY(`tenant_id`, `provider`)
);
