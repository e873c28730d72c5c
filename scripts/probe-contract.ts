// Probe checks of the API contract, run by scripts/probe.ts against its local worker: the OpenAPI document it
// serves names every operation as a method under a tag and points at the worker itself; what the document says
// about authentication is what the worker does (an operation open to all answers without a key, every other
// refuses one that has none); the runs list keeps agent-driven runs apart and names a bad kind.
import type { ProbeContext } from './probe-hardening.ts';

interface Operation {
  readonly operationId?: string;
  readonly tags?: readonly string[];
  readonly security?: readonly unknown[];
}

export const probeContract = async ({ base, send, check }: ProbeContext): Promise<void> => {
  const document = JSON.parse((await send('GET', '/v1/openapi.json', { key: null })).text) as {
    servers?: { url: string }[];
    paths: Record<string, Record<string, Operation>>;
  };
  const operations = Object.entries(document.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ path, method, op })));
  const unnamed = operations.filter(({ op }) => !/^[a-z][A-Za-z]+$/.test(op.operationId ?? '') || op.tags?.length !== 1);
  check(unnamed.length === 0, 'every documented operation has an operationId and one tag', unnamed.map((o) => `${o.method} ${o.path}`).join(', '));
  check(document.servers?.[0]?.url === base, "the document's server is the worker that served it", document.servers?.[0]?.url);

  // Every GET without path parameters, asked without a key (from a client of its own, apart from the failed
  // authentications the other probes count): open ones answer, the others refuse.
  const plainGets = operations.filter(({ method, path }) => method === 'get' && !path.includes('{') && !path.endsWith('/events'));
  const misdocumented: string[] = [];
  for (const { path, op } of plainGets) {
    const status = (await send('GET', path, { key: null, headers: { 'cf-connecting-ip': '198.51.100.23' } })).status;
    const open = op.security?.length === 0;
    if (open ? status !== 200 : status !== 401) misdocumented.push(`${path} ${open ? 'security: []' : 'secured'} → ${status}`);
  }
  check(plainGets.length >= 5 && misdocumented.length === 0, `what the document says of authentication holds for its ${plainGets.length} plain GETs`, misdocumented.join(', '));

  const badKind = await send('GET', '/v1/runs?kind=rl');
  check(badKind.status === 400 && badKind.text.includes('kind'), 'GET /v1/runs?kind=rl → 400 naming kind', `${badKind.status}`);
  const episode = await send('POST', '/v1/episodes', { body: { domain: 'mock', task_id: 'create_task_1', llm_user: 'fake-user' } });
  const runId = (JSON.parse(episode.text) as { run_id?: string }).run_id;
  const listed = async (kind: string) => (JSON.parse((await send('GET', `/v1/runs?limit=200&kind=${kind}`)).text) as { runs: { id: string }[] }).runs.map((r) => r.id);
  check(runId !== undefined && (await listed('external')).includes(runId) && !(await listed('evaluation')).includes(runId), "an agent-driven episode's run is listed with kind=external, not with the evaluations");
};
