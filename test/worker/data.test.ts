// Reference data in the Worker: read from the static assets, parsed once per isolate, never served to callers.
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { assetsDataSource, loadDomain } from '../../src/worker/data/domains.ts';
import { call } from './support/api.ts';
import { domains } from '../../domains/registry.ts';
import { dumpsPy } from '../../src/core/py/index.ts';
import type { PyInput } from '../../src/core/py/index.ts';

describe('domain data', () => {
  it('is loaded from the assets once and shared by every later use in the isolate', async () => {
    const first = await loadDomain(env.ASSETS, 'mock');
    const second = await loadDomain(env.ASSETS, 'mock');
    expect(second).toBe(first);
    expect(second.data.tasks.map((t) => t.id)).toContain('create_task_1');
    expect(second.guidelines.plain.length).toBeGreaterThan(0);
  });

  it('every registered domain loads from the assets', async () => {
    for (const name of Object.keys(domains)) {
      const { data } = await loadDomain(env.ASSETS, name);
      expect(data.tasks.length, name).toBeGreaterThan(0);
    }
  });

  it("holds each domain's tasks exactly as the domain's loader reads them", async () => {
    for (const name of Object.keys(domains)) {
      const { data } = await loadDomain(env.ASSETS, name);
      const parsed = await domains[name]!.load(assetsDataSource(env.ASSETS));
      expect(dumpsPy(data.tasks as unknown as PyInput), name).toBe(dumpsPy(parsed.tasks as unknown as PyInput));
    }
  });

  it("holds telecom's 2,285 tasks compactly: their equal parts are one object, shared with telecom-workflow", async () => {
    const telecom = (await loadDomain(env.ASSETS, 'telecom')).data.tasks;
    const workflow = (await loadDomain(env.ASSETS, 'telecom-workflow')).data.tasks;
    expect(workflow).toBe(telecom);
    // The gold actions are composed from a few atomic issues: one object each, not a copy per task.
    const objects = new Set(telecom.flatMap((task) => task.evaluation_criteria?.actions ?? []));
    const actions = telecom.flatMap((task) => task.evaluation_criteria?.actions ?? []);
    expect(objects.size).toBeLessThan(actions.length / 10);
    expect(Object.isFrozen(telecom[0])).toBe(true);
  });

  it('an unknown domain is refused', async () => {
    await expect(loadDomain(env.ASSETS, 'nowhere')).rejects.toThrow(/Unknown domain: nowhere/);
  });

  it('is not served over HTTP', async () => {
    const response = await call('/domains/mock/db.json');
    expect(response.status).toBe(404);
    expect((await call('/domains/banking_knowledge/db.json')).status).toBe(404);
  });

  it("holds the knowledge domain's files, documents included (names with parentheses too)", async () => {
    const document = await env.ASSETS.fetch(new URL('domains/banking_knowledge/documents/doc_bank_accounts_bank_accounts_(general)_001.json', 'https://assets.invalid/'));
    expect(document.status).toBe(200);
    expect(Object.keys((await document.json()) as object).length).toBeGreaterThan(0);
    for (const file of ['db.json', 'tasks.json', 'prompts/classic_rag_bm25.md']) {
      expect((await env.ASSETS.fetch(new URL(`domains/banking_knowledge/${file}`, 'https://assets.invalid/'))).status, file).toBe(200);
    }
  });
});
