CREATE TABLE `document_embeddings` (
	`key` text PRIMARY KEY NOT NULL,
	`vector` text NOT NULL,
	`created_at` text NOT NULL
);
