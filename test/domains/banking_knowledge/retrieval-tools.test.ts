// The retrieval tools of the BM25 and grep configurations, against the reference's banking_knowledge
// environment (test/fixtures/banking-retrieval-tools.json): the agent's tool list and the retrieval tools'
// schemas, and KB_search / grep answers through the environment. KB_search ends with a timing line whose
// figures are the clock's; the text before it is compared.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { toolSchemas } from '../../../src/core/environment/toolkit.ts';
import { episodeDomain } from '../../../src/core/environment/episode-domain.ts';
import { Environment } from '../../../src/core/environment/environment.ts';
import { isoTimestamp } from '../../../src/core/orchestrator/clock.ts';
import { sha256Hex } from '../../../src/core/py/index.ts';
import type { PyValue } from '../../../src/core/py/index.ts';
import { bankingKnowledgeDomain } from '../../../domains/banking_knowledge/environment.ts';
import { loaded, steppingClock } from '../../support/domains.ts';

interface Fixture {
  configs: Record<string, { tool_names: string[]; retrieval_schemas: unknown[] }>;
  calls: { config: string; name: string; arguments: Record<string, PyValue>; error: boolean; timing_line: boolean; sha256: string }[];
}

const fixture = JSON.parse(readFileSync(new URL('../../fixtures/banking-retrieval-tools.json', import.meta.url), 'utf8')) as Fixture;
const { domain, data } = await loaded('banking_knowledge');
const TIMING_LINE = /\n\n\[Timing: retrieval=\d+ms(, reranking=\d+ms)?, total=\d+ms\]$/;

const view = (config: string) => episodeDomain(domain, data, data.tasks[0]!, { retrievalConfig: config, retrievalConfigKwargs: null });

describe('banking_knowledge retrieval tools', () => {
  for (const [config, expected] of Object.entries(fixture.configs)) {
    it(`${config}: the agent's tools and the retrieval tools' schemas are the reference's`, () => {
      const schemas = toolSchemas(view(config).domain.agentToolkit);
      expect(schemas.map((s) => s.function.name)).toEqual(expected.tool_names);
      const retrieval = schemas.filter((s) => s.function.name === 'KB_search' || s.function.name === 'grep');
      expect(JSON.stringify(retrieval)).toBe(JSON.stringify(expected.retrieval_schemas));
    });
  }

  fixture.calls.forEach((c, i) => {
    it(`${c.config}: ${c.name}(${JSON.stringify(c.arguments)}) answers as the reference`, () => {
      const episode = view(c.config);
      const clock = steppingClock();
      const env = new Environment(episode.domain, episode.data, { now: () => isoTimestamp(clock.nowMs()) });
      const message = env.getResponse({ id: `c${i}`, name: c.name, arguments: c.arguments, requestor: 'assistant' });
      expect(message.error).toBe(c.error);
      const content = message.content ?? '';
      expect(TIMING_LINE.test(content)).toBe(c.timing_line);
      expect(sha256Hex(content.replace(TIMING_LINE, ''))).toBe(c.sha256);
    });
  });

  it('the configurations this build cannot serve yet are refused, naming the missing tools', () => {
    const refusal = bankingKnowledgeDomain.episodeAssembly!.refusal('bm25_reranker', null);
    expect(refusal).toContain('KB_search');
    expect(bankingKnowledgeDomain.episodeAssembly!.refusal('bm25', null)).toBeNull();
    expect(bankingKnowledgeDomain.episodeAssembly!.refusal('grep_only', null)).toBeNull();
  });
});
