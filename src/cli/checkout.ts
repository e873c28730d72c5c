// Where the checkout is, and the wrangler it installed: read by every part of the CLI that runs its tools.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const wranglerBin = path.join(repoRoot, 'node_modules', '.bin', 'wrangler');
