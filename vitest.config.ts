// Test projects: `core` runs in Node, `worker` runs in the Workers runtime against wrangler.toml.
import { cloudflareTest } from '@cloudflare/vitest-plugin';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'core',
          environment: 'node',
          include: [
            'test/core/**/*.test.ts',
            'test/domains/**/*.test.ts',
            'test/cli/**/*.test.ts',
            'test/scripts/**/*.test.ts',
          ],
        },
      },
      {
        plugins: [cloudflareTest({ wrangler: { configPath: './wrangler.toml' } })],
        test: {
          name: 'worker',
          include: ['test/worker/**/*.test.ts'],
        },
      },
    ],
  },
});
