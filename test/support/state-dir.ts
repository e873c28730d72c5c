// Each test file's own local-worker state folder (TAU2_EDGE_STATE_DIR), inside the run's (state-dir.setup.ts):
// files that run side by side never share a local worker's database or its run list.
import { mkdtemp } from 'node:fs/promises';
import path from 'node:path';
import { inject } from 'vitest';

process.env.TAU2_EDGE_STATE_DIR = await mkdtemp(path.join(inject('stateRoot'), 'file-'));
