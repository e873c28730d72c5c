// The Anthropic adapter (Messages API) keeps the adapter contract against the scripted native server.
import { describe } from 'vitest';
import { runContract } from '../../contracts/llm-adapter.contract.ts';
import { CONTRACT_SERVERS } from '../../support/contract-servers.ts';

describe('anthropic adapter', () => runContract({ make: CONTRACT_SERVERS.anthropic }));
