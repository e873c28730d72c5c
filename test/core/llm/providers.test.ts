// The provider registry: the one source file under src/ that names a provider's variables, the model routes
// read from it, and the operator's credentials as its variables give them.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CREDENTIAL_PROVIDERS,
  PROVIDER_KEY_VARS,
  PROVIDER_VARS,
  PROVIDERS,
  adapterOwner,
  catalogueProvider,
  isOpenAIRoute,
  keyVarsText,
  modelRoute,
  operatorApiRoot,
  operatorCredential,
} from '../../../src/core/llm/providers.ts';
import { ProviderNameSchema } from '../../../src/api/index.ts';

const SRC = path.resolve(import.meta.dirname, '../../../src');
const REGISTRY = path.join('core', 'llm', 'providers.ts');

/** The variables every provider had before the registry, kept here so that none can leave it unnoticed. */
const KNOWN_VARS = [
  'OPENAI_API_KEY', 'OPENAI_BASE_URL', 'ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL', 'GEMINI_API_KEY',
  'GOOGLE_GENERATIVE_AI_API_KEY', 'GOOGLE_GENERATIVE_AI_BASE_URL', 'OPENROUTER_API_KEY', 'OPENROUTER_BASE_URL',
];

const sourceFiles = async (dir: string): Promise<string[]> =>
  (await readdir(dir, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile() && /\.(ts|tsx|js|mjs)$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));

describe('the provider registry', () => {
  it('is the only file under src/ that names a provider variable', async () => {
    const names = [...new Set([...KNOWN_VARS, ...PROVIDER_VARS])];
    const files = await sourceFiles(SRC);
    const seen = new Map<string, string[]>();
    for (const file of files) {
      const text = await readFile(file, 'utf8');
      for (const name of names) {
        if (new RegExp(`\\b${name}\\b`).test(text)) seen.set(name, [...(seen.get(name) ?? []), path.relative(SRC, file)]);
      }
    }
    expect(Object.fromEntries(names.map((name) => [name, seen.get(name) ?? []]))).toEqual(Object.fromEntries(names.map((name) => [name, [REGISTRY]])));
  });

  it('is the only file under src/ that maps a litellm provider name to the price catalogue\'s', async () => {
    const sources = Object.values(PROVIDERS).flatMap((entry) => Object.entries(entry.priceSource));
    expect(sources.length).toBeGreaterThan(0);
    const files = await sourceFiles(SRC);
    for (const [prefix, id] of sources) {
      const mapping = new RegExp(`['"]?\\b${prefix}['"]?\\s*:\\s*['"]${id}['"]`);
      const naming = [];
      for (const file of files) if (mapping.test(await readFile(file, 'utf8'))) naming.push(path.relative(SRC, file));
      expect(naming, `${prefix} → ${id}`).toEqual([REGISTRY]);
    }
  });

  it('names each model prefix\'s provider in the price catalogue', () => {
    expect(catalogueProvider('gemini/gemini-2.5-pro')).toBe('google');
    expect(catalogueProvider('vertex_ai/gemini-2.5-pro')).toBe('google');
    expect(catalogueProvider('anthropic/claude-sonnet-4-5')).toBe('anthropic');
    expect(catalogueProvider('xai/grok-3')).toBe('x-ai');
    expect(catalogueProvider('openrouter/qwen/qwen3-embedding-8b')).toBe('openrouter');
    // No prefix, or one the registry does not know: the catalogue matches by model name alone.
    expect(catalogueProvider('gpt-4.1')).toBeUndefined();
    expect(catalogueProvider('ollama_chat/llama3')).toBeUndefined();
    expect(catalogueProvider('toString/x')).toBeUndefined();
  });

  it('names every known variable', () => {
    expect([...PROVIDER_VARS].sort()).toEqual([...KNOWN_VARS].sort());
    expect(PROVIDER_KEY_VARS).toEqual(['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'GEMINI_API_KEY', 'GOOGLE_GENERATIVE_AI_API_KEY', 'OPENROUTER_API_KEY']);
  });

  it('routes models by their litellm-style prefixes, every other name to the OpenAI endpoint', () => {
    expect(modelRoute('openai/responses/gpt-5')).toEqual({ provider: 'openai.responses', model: 'gpt-5' });
    expect(modelRoute('openai/gpt-4.1')).toEqual({ provider: 'openai', model: 'openai/gpt-4.1' });
    expect(adapterOwner('openai.responses')).toBe('openai');
    expect(isOpenAIRoute('openai.responses')).toBe(true);
    expect(isOpenAIRoute('anthropic')).toBe(false);
    expect(adapterOwner(modelRoute('claude-3-5-haiku-latest').provider)).toBe('anthropic');
  });

  it('reads the operator credential from the first key variable set, and its API root', () => {
    expect(operatorCredential({}, 'google')).toBeNull();
    expect(operatorCredential({ GOOGLE_GENERATIVE_AI_API_KEY: 'g2' }, 'google')).toEqual({ apiKey: 'g2' });
    expect(operatorCredential({ GEMINI_API_KEY: 'g1', GOOGLE_GENERATIVE_AI_API_KEY: 'g2', GOOGLE_GENERATIVE_AI_BASE_URL: 'http://g/v1beta' }, 'google')).toEqual({
      apiKey: 'g1',
      baseURL: 'http://g/v1beta',
    });
    expect(operatorApiRoot({}, 'openai')).toBe('https://api.openai.com/v1');
    expect(operatorApiRoot({ OPENROUTER_BASE_URL: 'http://or/v1' }, 'openrouter')).toBe('http://or/v1');
    expect(keyVarsText('google')).toBe('GEMINI_API_KEY (or GOOGLE_GENERATIVE_AI_API_KEY)');
  });

  it('lets tenants store credentials for the chat providers only', () => {
    expect(CREDENTIAL_PROVIDERS).toEqual(['openai', 'anthropic', 'google']);
    expect(ProviderNameSchema.options).toEqual(CREDENTIAL_PROVIDERS);
  });
});
