// The API contract: /v1/openapi.json documents every route the Worker serves, and live responses of every
// documented operation match the schema documented for their status.
import { Validator } from '@cfworker/json-schema';
import type { Schema } from '@cfworker/json-schema';
import { swaggerScript, swaggerStyle } from '../../src/worker/docs/swagger-assets.ts';
import { describe, expect, it } from 'vitest';
import { appRoutes } from '../../src/worker/index.ts';
import { call, pyBody, startRun, waitForRun } from './support/api.ts';
import type { CallOptions } from './support/api.ts';
import { SCRIPT_MODELS, scriptedRun } from './support/script.ts';

interface Operation {
  readonly responses: Record<string, { content?: Record<string, { schema?: Schema }> }>;
}
interface Document {
  readonly openapi: string;
  readonly paths: Record<string, Record<string, Operation>>;
}

const documented = async (): Promise<Document> => {
  const response = await call('/v1/openapi.json', { anonymous: true });
  expect(response.status).toBe(200);
  return (await response.json()) as Document;
};

/** `/v1/runs/:id` as the document writes it: `/v1/runs/{id}`. */
const asTemplate = (path: string): string => path.replace(/:(\w+)/g, '{$1}');

describe('OpenAPI document', () => {
  it('is OpenAPI 3.1 and documents exactly the routes the Worker serves', async () => {
    const doc = await documented();
    expect(doc.openapi).toBe('3.1.0');
    const served = new Set(appRoutes().filter((r) => r.method !== 'ALL' && r.path.startsWith('/v1/')).map((r) => `${r.method} ${asTemplate(r.path)}`));
    const inDoc = new Set(Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`)));
    expect([...served].sort()).toEqual([...inDoc].sort());
  });

  it('/docs renders the reference page with the renderer this Worker serves, and no other site', async () => {
    const response = await call('/docs', { anonymous: true });
    expect(response.status).toBe(200);
    const page = await response.text();
    expect(page).toContain('/v1/openapi.json');
    expect(page).not.toMatch(/https?:\/\//);
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
    const script = await call('/docs/assets/swagger-ui-bundle.js', { anonymous: true });
    expect(script.headers.get('content-type')).toContain('text/javascript');
    // The files themselves are stand-ins in this pool (vitest.config.ts); test/browser renders the real ones.
    expect(await script.text()).toBe(swaggerScript);
    const style = await call('/docs/assets/swagger-ui.css', { anonymous: true });
    expect(style.headers.get('content-type')).toContain('text/css');
    expect(await style.text()).toBe(swaggerStyle);
  });

  it('live responses of every operation match the documented schema for their status', async () => {
    const doc = await documented();
    const checked = new Set<string>();
    const check = async (method: string, template: string, path: string, options: CallOptions = {}): Promise<Response> => {
      const response = await call(path, { ...options, method });
      const operation = doc.paths[template]?.[method.toLowerCase()];
      expect(operation, `${method} ${template} is documented`).toBeDefined();
      const documentedResponse = operation!.responses[String(response.status)];
      expect(documentedResponse, `${method} ${template} documents status ${response.status}`).toBeDefined();
      const schema = documentedResponse!.content?.['application/json']?.schema;
      if (schema) {
        const result = new Validator(schema, '2020-12', false).validate(await response.clone().json());
        expect(result.errors.slice(0, 3), `${method} ${template} → ${response.status}`).toEqual([]);
      }
      checked.add(`${method} ${template}`);
      return response;
    };

    await check('GET', '/v1/health', '/v1/health');
    await check('GET', '/v1/openapi.json', '/v1/openapi.json');
    const runId = await startRun(scriptedRun({ task_ids: ['create_task_1'] }));
    await check('POST', '/v1/runs', '/v1/runs', { body: scriptedRun({ task_ids: ['create_task_1'] }) });
    await check('POST', '/v1/runs', '/v1/runs', { body: { domain: 'mock', num_trials: 0 } });
    await check('POST', '/v1/runs', '/v1/runs', { body: scriptedRun(), anonymous: true });
    await check('GET', '/v1/runs', '/v1/runs');
    await check('GET', '/v1/runs', '/v1/runs?limit=0');
    await waitForRun(runId);
    await check('GET', '/v1/runs/{id}', `/v1/runs/${runId}`);
    await check('GET', '/v1/runs/{id}', '/v1/runs/nope');
    const results = (await pyBody(await check('GET', '/v1/runs/{id}/results', `/v1/runs/${runId}/results`))) as { simulations: { id: string }[] };
    await check('GET', '/v1/runs/{id}/results', `/v1/runs/${runId}/results?messages=false`);
    await check('GET', '/v1/runs/{id}/results', `/v1/runs/${runId}/results?messages=maybe`);
    await check('GET', '/v1/runs/{id}/usage', `/v1/runs/${runId}/usage`);
    await check('GET', '/v1/runs/{id}/usage', '/v1/runs/nope/usage');
    await check('GET', '/v1/runs/{id}/events', `/v1/runs/${runId}/events`);
    await check('GET', '/v1/runs/{id}/episodes', `/v1/runs/${runId}/episodes?limit=1`);
    await check('GET', '/v1/runs/{id}/episodes', `/v1/runs/${runId}/episodes?status=lost`);
    await check('GET', '/v1/runs/{id}/episodes', '/v1/runs/nope/episodes');
    await check('POST', '/v1/runs/{id}/cancel', `/v1/runs/${runId}/cancel`);
    await check('POST', '/v1/runs/{id}/rerun-infra-errors', `/v1/runs/${runId}/rerun-infra-errors`);
    await check('GET', '/v1/compare', `/v1/compare?a=${runId}&b=${runId}`);
    await check('GET', '/v1/compare', `/v1/compare?a=${runId}`);
    await check('GET', '/v1/compare', `/v1/compare?a=${runId}&b=nope`);
    await check('GET', '/v1/simulations/{id}', `/v1/simulations/${results.simulations[0]!.id}`);
    await check('GET', '/v1/simulations/{id}/db-diff', `/v1/simulations/${results.simulations[0]!.id}/db-diff`);
    await check('GET', '/v1/simulations/{id}/db-diff', '/v1/simulations/nope/db-diff');

    const episode = (await pyBody(await check('POST', '/v1/episodes', '/v1/episodes', { body: { domain: 'mock', task_id: 'create_task_1', llm_user: SCRIPT_MODELS.user } }))) as { episode_id: string };
    await check('POST', '/v1/episodes', '/v1/episodes', { body: { domain: 'mock' } });
    const batch = { domain: 'mock', task_ids: ['create_task_1'], llm_user: SCRIPT_MODELS.user };
    await check('POST', '/v1/episodes/batch', '/v1/episodes/batch', { body: batch, headers: { 'Idempotency-Key': 'contract-batch' } });
    await check('POST', '/v1/episodes/batch', '/v1/episodes/batch', { body: { ...batch, num_trials: 2 }, headers: { 'Idempotency-Key': 'contract-batch' } });
    await check('POST', '/v1/episodes/batch', '/v1/episodes/batch', { body: { domain: 'mock', task_ids: [] } });
    await check('POST', '/v1/episodes/{id}/step', `/v1/episodes/${episode.episode_id}/step`, { body: { step: 3, message: { role: 'assistant', content: 'early' } } });
    await check('POST', '/v1/episodes/{id}/step', `/v1/episodes/${episode.episode_id}/step`, { body: { step: 0, message: { role: 'assistant', content: 'Hello' } } });
    await check('GET', '/v1/episodes/{id}', `/v1/episodes/${episode.episode_id}`);
    await check('GET', '/v1/episodes/{id}', '/v1/episodes/nope');
    await check('POST', '/v1/episodes/{id}/fork', `/v1/episodes/${episode.episode_id}/fork`, { body: { at_step: 1, n: 2 } });
    await check('POST', '/v1/episodes/{id}/fork', `/v1/episodes/${episode.episode_id}/fork`, { body: { at_step: 99 } });
    await check('POST', '/v1/episodes/{id}/fork', '/v1/episodes/nope/fork', { body: { at_step: 0 } });
    await check('POST', '/v1/episodes/batch', '/v1/episodes/batch', { body: { fork_of: { episode_id: episode.episode_id, at_step: 1 }, n: 2 } });
    await check('POST', '/v1/simulations/{id}/fork', `/v1/simulations/${results.simulations[0]!.id}/fork`, { body: { at_step: 0 } });
    await check('POST', '/v1/simulations/{id}/fork', '/v1/simulations/nope/fork', { body: { at_step: 0 } });

    const schedule = (await pyBody(await check('POST', '/v1/schedules', '/v1/schedules', { body: { name: 'contract', interval_minutes: 60, run: scriptedRun() } }))) as { id: string };
    await check('GET', '/v1/schedules', '/v1/schedules');
    await check('GET', '/v1/schedules/{id}', `/v1/schedules/${schedule.id}`);
    await check('PATCH', '/v1/schedules/{id}', `/v1/schedules/${schedule.id}`, { body: { enabled: false } });
    await check('DELETE', '/v1/schedules/{id}', `/v1/schedules/${schedule.id}`);

    await check('PUT', '/v1/provider-credentials/{provider}', '/v1/provider-credentials/google', { body: { api_key: 'g-contract-key' } });
    await check('GET', '/v1/provider-credentials', '/v1/provider-credentials');
    await check('DELETE', '/v1/provider-credentials/{provider}', '/v1/provider-credentials/google');

    const key = (await pyBody(await check('POST', '/v1/admin/keys', '/v1/admin/keys', { body: { tenant: 'contract', name: 'contract' } }))) as { id: string };
    await check('GET', '/v1/admin/keys', '/v1/admin/keys');
    await check('DELETE', '/v1/admin/keys/{id}', `/v1/admin/keys/${key.id}`);
    await check('PUT', '/v1/admin/tenants/{tenant}/quotas', '/v1/admin/tenants/contract/quotas', { body: { episodes_per_day: 5, usd_per_day: 1.5 } });
    await check('GET', '/v1/admin/tenants/{tenant}/quotas', '/v1/admin/tenants/contract/quotas');

    const operations = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));
    expect([...checked].sort()).toEqual(operations.sort());
  });
});
