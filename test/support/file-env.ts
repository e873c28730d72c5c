// Each test file's environment variables are its own: files that share a worker process (isolate: false) one
// after another find process.env as it was before the last one set or removed variables (e.g. a provider key,
// the folder runs are saved to).
import { afterAll } from 'vitest';

const before = { ...process.env };

afterAll(() => {
  for (const name of Object.keys(process.env)) if (!(name in before)) delete process.env[name];
  Object.assign(process.env, before);
});
