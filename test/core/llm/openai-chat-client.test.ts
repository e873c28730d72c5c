// The OpenAI-compatible Chat Completions adapter (bare and `openai/…` models) keeps the adapter contract against
// the scripted OpenAI server; its byte-exact payload is ai-sdk-client.test.ts's.
import { describe } from 'vitest';
import { runContract } from '../../contracts/llm-adapter.contract.ts';
import { CONTRACT_SERVERS } from '../../support/contract-servers.ts';

describe('openai chat adapter', () => runContract({ make: CONTRACT_SERVERS.openai }));
