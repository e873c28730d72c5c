// The Google adapter (Gemini generateContent) keeps the adapter contract against the scripted native server.
import { describe } from 'vitest';
import { runContract } from '../../contracts/llm-adapter.contract.ts';
import { CONTRACT_SERVERS } from '../../support/contract-servers.ts';

describe('google adapter', () => runContract({ make: CONTRACT_SERVERS.google }));
