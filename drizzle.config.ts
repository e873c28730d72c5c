// drizzle-kit: generates the D1 migrations in migrations/ from the worker's schema (`npm run db:generate`).
import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'sqlite',
  schema: './src/worker/db/schema.ts',
  out: './migrations',
});
