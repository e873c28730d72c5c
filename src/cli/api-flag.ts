// The `--api URL` flag of the commands that talk to a serving worker, and the client it gives
// (TAU2_EDGE_API_KEY is sent as the Bearer token).
import type { Command } from 'commander';
import { apiClient } from '../client/index.ts';
import type { ApiClient } from '../client/index.ts';

export interface ApiFlags {
  readonly api: string;
}

export const withApiFlag = (command: Command, description = 'the tau2-edge API (key: TAU2_EDGE_API_KEY)'): Command =>
  command.requiredOption('--api <url>', description);

export const clientFromFlags = (values: ApiFlags): ApiClient => apiClient(values.api.replace(/\/+$/, ''), process.env.TAU2_EDGE_API_KEY);
