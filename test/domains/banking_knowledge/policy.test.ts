// The policy of every retrieval configuration, byte for byte as the reference renders it: SHA-256 values in
// test/fixtures/banking-policies.json (the knowledge base in file-name order; see its README line).
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { sha256Hex } from '../../../src/core/py/index.ts';
import { episodeDomain, runPolicy } from '../../../src/core/environment/episode-domain.ts';
import { loaded } from '../../support/domains.ts';

interface PolicyHashes {
  configurations: Record<string, string>;
  golden_retrieval: Record<string, string>;
  run_policy: Record<string, string>;
}
const expected = JSON.parse(readFileSync(new URL('../../fixtures/banking-policies.json', import.meta.url), 'utf8')) as PolicyHashes;
const { domain, data } = await loaded('banking_knowledge');
const task = (id: string) => data.tasks.find((t) => t.id === id)!;
const policyOf = (config: string, taskId = 'task_001') =>
  episodeDomain(domain, data, task(taskId), { retrievalConfig: config, retrievalConfigKwargs: null }).data.policy;

describe('banking_knowledge policies', () => {
  it('knows every configuration of the reference, in its order', () => {
    expect(domain.episodeAssembly?.configNames).toEqual(Object.keys(expected.run_policy));
  });

  it.each(Object.entries(expected.configurations))('%s: the episode policy', (config, sha) => {
    expect(sha256Hex(policyOf(config))).toBe(sha);
  });

  it.each(Object.entries(expected.golden_retrieval))('golden_retrieval, %s: the task documents inlined', (taskId, sha) => {
    expect(sha256Hex(policyOf('golden_retrieval', taskId))).toBe(sha);
  });

  it.each(Object.entries(expected.run_policy))('%s: the policy recorded in the results info', (config, sha) => {
    expect(sha256Hex(runPolicy(domain, data, { retrievalConfig: config, retrievalConfigKwargs: null }, ''))).toBe(sha);
  });

  it('the alias AllTools is alltools; an unknown name is refused with the available ones', () => {
    expect(policyOf('AllTools')).toBe(policyOf('alltools'));
    expect(domain.episodeAssembly?.refusal('bogus', null)).toMatch(/^Unknown retrieval variant: 'bogus'\. Available: \['alltools', /);
  });

  it('every configuration runs, by its name or alias; an unknown name is refused with the reference\'s message', () => {
    for (const config of [...Object.keys(data.policies!), 'AllTools']) expect(domain.episodeAssembly?.refusal(config, null)).toBeNull();
    expect(domain.episodeAssembly?.refusal('bm25_rerank', null)).toMatch(/^Unknown retrieval variant: 'bm25_rerank'\. Available: \[/);
  });
});
