// Probe checks of credentials in llm_args, redirects, endpoint rules, sign-in redirects, revoked event streams,
// done and forged episodes, strict bodies and OpenEnv sockets (probe-sockets.ts), run by scripts/probe.ts against its
// local worker (tenants' endpoints under production rules).
import type { Harness } from '../test/support/load-harness.ts';
import { mockConversation } from '../test/support/fake-openai.ts';
import type { FakeHandler } from '../test/support/fake-openai.ts';
import { startRedirectTrap } from '../test/support/redirect-trap.ts';
import { probeSockets } from './probe-sockets.ts';

export interface Sent {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
}

export interface ProbeContext {
  readonly harness: Harness;
  readonly base: string;
  readonly operatorKey: string;
  readonly send: (method: string, path: string, options?: { body?: unknown; key?: string | null; headers?: Record<string, string> }) => Promise<Sent>;
  readonly check: (ok: boolean, label: string, detail?: string) => void;
  readonly run: (overrides?: Record<string, unknown>) => Record<string, unknown>;
  readonly waitDone: (id: string, key?: string) => Promise<string>;
}

const codeOf = (sent: Sent): string | undefined => (JSON.parse(sent.text) as { error?: { code?: string } }).error?.code;
const messageOf = (sent: Sent): string => (JSON.parse(sent.text) as { error?: { message?: string } }).error?.message ?? '';

/** No provider call follows a redirect: the run ends as an infrastructure error naming it; the target never hears of it. */
const redirects = async ({ harness, send, check, run, waitDone }: ProbeContext): Promise<void> => {
  const trap = await startRedirectTrap();
  const conversation = mockConversation();
  const bouncing: FakeHandler = (request) => {
    const model = (request.body as { model?: string }).model ?? '';
    const status = /^probe-redirect-(30[27])$/.exec(model)?.[1];
    return status === undefined ? conversation(request) : { kind: 'raw', status: Number(status), body: '', headers: { location: `${trap.trapURL}/caught` } };
  };
  harness.fake.setHandler(bouncing);
  try {
    for (const status of [307, 302]) {
      const launched = await send('POST', '/v1/runs', { body: run({ llm_agent: `probe-redirect-${status}`, max_retries: 0 }) });
      const { run_id } = JSON.parse(launched.text) as { run_id: string };
      await waitDone(run_id);
      const results = JSON.parse((await send('GET', `/v1/runs/${run_id}/results`)).text) as { simulations: { termination_reason: string; info?: { error?: string } }[] };
      const [simulation] = results.simulations;
      check(
        simulation?.termination_reason === 'infrastructure_error' && (simulation.info?.error ?? '').includes(`HTTP ${status} redirect refused (Location ${trap.trapURL}/caught)`),
        `a provider answering ${status} → an infrastructure error naming the redirect`,
        simulation?.info?.error ?? '',
      );
    }
    check(trap.trapped.length === 0, 'the address redirected to is never called (so no key goes there)', `${trap.trapped.length} calls`);
  } finally {
    harness.fake.setHandler(mockConversation());
    await trap.close();
  }
};

/** Internal addresses in IPv6 forms and single-label names are refused wherever a tenant names an endpoint. */
const endpointRules = async ({ send, check, run, operatorKey }: ProbeContext): Promise<void> => {
  const key = (JSON.parse((await send('POST', '/v1/admin/keys', { key: operatorKey, body: { tenant: 'probe-rules', name: 'rules' } })).text) as { key: string }).key;
  for (const url of ['https://[::ffff:127.0.0.1]/v1', 'https://[::ffff:0:127.0.0.1]/v1', 'https://[64:ff9b::127.0.0.1]/v1', 'https://[64:ff9b:1::1]/v1', 'https://intranet/v1']) {
    const provider = await send('PUT', '/v1/provider-credentials/openai', { key, body: { base_url: url, api_key: 'sk-probe-rules' } });
    const agent = await send('POST', '/v1/runs', { key, body: run({ agent_endpoint: { url: `${url}/chat/completions` } }) });
    const role = await send('POST', '/v1/runs', { key, body: run({ llm_args_user: { api_base: url } }) });
    check([provider, agent, role].every((s) => s.status === 400), `endpoint ${url} → 400 (provider, agent endpoint, api_base)`, messageOf(provider));
  }
};

/** Sign-in sends the browser to a path of this site only. */
const signInRedirect = async ({ base, operatorKey, check }: ProbeContext): Promise<void> => {
  for (const next of ['/\t/evil.example', '/\\evil.example', 'https://evil.example/', '//evil.example', '/.//evil.example', '/%2E%2E//evil.example', '/a/..//evil.example', '/./\\evil.example']) {
    const response = await fetch(`${base}/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: base },
      body: new URLSearchParams({ api_key: operatorKey, next }).toString(),
      signal: AbortSignal.timeout(30_000),
    });
    check(response.status === 303 && response.headers.get('location') === '/', `sign-in with next=${JSON.stringify(next)} → Location /`, `${response.status} ${response.headers.get('location')}`);
  }
  for (const next of ['/%09/evil.example', '/.//evil.example']) {
    const page = await (await fetch(`${base}/login?next=${next}`, { signal: AbortSignal.timeout(30_000) })).text();
    check(!page.includes('evil.example'), `the sign-in page does not carry next=${next}`);
  }
};

/** An open event stream ends once its key is revoked. */
const revokedStream = async ({ harness, base, send, check, run, operatorKey }: ProbeContext): Promise<void> => {
  const created = JSON.parse((await send('POST', '/v1/admin/keys', { key: operatorKey, body: { tenant: 'probe-stream', name: 'stream' } })).text) as { id: string; key: string };
  harness.fake.setHandler(mockConversation({ delayMs: 400 }));
  const { run_id } = JSON.parse((await send('POST', '/v1/runs', { key: created.key, body: run({ task_ids: ['create_task_1', 'update_task_1'], num_trials: 4, max_concurrency: 1 }) })).text) as { run_id: string };
  const stream = await fetch(`${base}/v1/runs/${run_id}/events`, { headers: { authorization: `Bearer ${created.key}` } });
  const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
  await reader.read();
  await send('DELETE', `/v1/admin/keys/${created.id}`, { key: operatorKey });
  const ended = await Promise.race([
    (async () => {
      while (!(await reader.read()).done);
      return true;
    })(),
    new Promise<false>((resolve) => setTimeout(() => resolve(false), 10_000)),
  ]);
  check(ended, 'an open event stream ends once its key is revoked');
  if (!ended) await reader.cancel();
  harness.fake.setHandler(mockConversation());
  await send('POST', `/v1/runs/${run_id}/cancel`, { key: operatorKey });
};

/** A done episode: 409 naming its final step, except that step sent again unchanged. */
const doneEpisode = async ({ send, check }: ProbeContext): Promise<void> => {
  const created = await send('POST', '/v1/episodes', { body: { domain: 'mock', task_id: 'create_task_1', llm_user: 'fake-user' } });
  const { episode_id } = JSON.parse(created.text) as { episode_id: string };
  const stop = { role: 'assistant', tool_calls: [{ id: 'call_done', type: 'function', function: { name: 'done', arguments: '{}' } }] };
  const stepOf = (step: number, message: unknown) => send('POST', `/v1/episodes/${episode_id}/step`, { body: { step, message } });
  const last = await stepOf(0, stop);
  check(last.status === 200 && (JSON.parse(last.text) as { done: boolean }).done, 'an episode ends with its `done` call', `${last.status}`);
  const repeat = await stepOf(0, stop);
  check(repeat.status === 200 && repeat.text === last.text, 'its final step sent again gets the same answer', `${repeat.status}`);
  for (const [step, message] of [[1, { role: 'assistant', content: 'more' }], [0, { role: 'assistant', content: 'other' }]] as const) {
    const refused = await stepOf(step, message);
    check(refused.status === 409 && messageOf(refused).includes('final step was 0'), `step ${step} on the done episode → 409 naming its final step`, `${refused.status} ${messageOf(refused)}`);
  }
};

/** A forged episode id (its run's, but a task and trial the run never had) is 404 on every route that takes one. */
const forgedEpisodeIds = async ({ send, check }: ProbeContext): Promise<void> => {
  const created = await send('POST', '/v1/episodes', { body: { domain: 'mock', task_id: 'create_task_1', llm_user: 'fake-user' } });
  const { run_id } = JSON.parse(created.text) as { run_id: string };
  const forged = Buffer.from(`${run_id}/7/update_task_1`).toString('base64url');
  const message = { role: 'assistant', content: 'hi' };
  const answers = [
    await send('GET', `/v1/episodes/${forged}`),
    await send('POST', `/v1/episodes/${forged}/step`, { body: { step: 0, message } }),
    await send('POST', '/openenv/reset', { body: { episode_id: forged } }),
    await send('POST', '/openenv/step', { body: { episode_id: forged, action: { message } } }),
  ];
  const statuses = answers.map((a) => a.status);
  check(statuses.every((s) => s === 404), 'a forged episode id (its run, another task and trial) → 404 on GET, step, OpenEnv reset and step', statuses.join(' '));
};

/** Bodies: JSON only, each key once, no BOM, no control characters in names; whole floats for integers. */
const strictBodies = async ({ base, operatorKey, send, check, run, waitDone }: ProbeContext): Promise<void> => {
  const plain = await fetch(`${base}/v1/runs`, {
    method: 'POST',
    headers: { authorization: `Bearer ${operatorKey}`, 'content-type': 'text/plain' },
    body: JSON.stringify(run()),
    signal: AbortSignal.timeout(30_000),
  });
  check(plain.status === 415, 'a body sent as text/plain → 415', `${plain.status}`);
  const duplicate = await send('POST', '/v1/runs', { body: JSON.stringify(run()).replace('{', '{"num_trials": 9, ') });
  check(duplicate.status === 400 && messageOf(duplicate).startsWith('num_trials: Duplicate key'), 'a duplicate key → 400 naming it', messageOf(duplicate));
  for (const [field, body] of [['llm_agent', run({ llm_agent: 'gpt\u0000' })], ['name', { tenant: 'probe-nul', name: 'k\u0000' }]] as const) {
    const sent = await send('POST', field === 'name' ? '/v1/admin/keys' : '/v1/runs', { body });
    check(sent.status === 400 && messageOf(sent).startsWith(`${field}: No control characters`), `a NUL in ${field} → 400 naming it`, messageOf(sent));
  }
  const quotas = '/v1/admin/tenants/probe-bom/quotas';
  await send('PUT', quotas, { body: { episodes_per_day: 5 } });
  const bom = await send('PUT', quotas, { body: '\uFEFF{}' });
  const kept = JSON.parse((await send('GET', quotas)).text) as { quotas: { episodes_per_day: number | null } };
  check(bom.status === 400 && codeOf(bom) === 'invalid_request' && kept.quotas.episodes_per_day === 5, 'a BOM before {} on the quotas PUT → 400, quotas unchanged', `${bom.status} ${JSON.stringify(kept.quotas)}`);
  const trials = (text: string) => JSON.stringify(run()).replace('"num_trials":1,', `"num_trials":${text},`);
  const whole = await send('POST', '/v1/runs', { body: trials('1.0') });
  check(whole.status === 202, 'num_trials 1.0 → 202, as pydantic takes it', `${whole.status}`);
  if (whole.status === 202) await waitDone((JSON.parse(whole.text) as { run_id: string }).run_id);
  const fraction = await send('POST', '/v1/runs', { body: trials('1.5') });
  check(fraction.status === 400 && messageOf(fraction) === 'num_trials: Invalid input: expected int', 'num_trials 1.5 → 400 naming the field and the rule', messageOf(fraction));
};

/** Credentials in llm_args: refused by every entry point with 400 naming the field; nothing stored, nothing echoed. */
const credentialArgs = async ({ send, check, run, waitDone }: ProbeContext): Promise<void> => {
  const secret = 'sk-probe-llm-arg-credential';
  const runs = async () => (JSON.parse((await send('GET', '/v1/runs?limit=200')).text) as { runs: unknown[] }).runs.length;
  const before = await runs();
  const episode = { domain: 'mock', task_id: 'create_task_1' };
  for (const [path, body, field] of [
    ['/v1/runs', run({ llm_args_agent: { api_key: secret } }), 'llm_args_agent.api_key'],
    ['/v1/runs', run({ llm_args_user: { extra_headers: { Authorization: `Bearer ${secret}` } } }), 'llm_args_user.extra_headers.Authorization'],
    ['/v1/runs', run({ llm_args_judge: { apiKey: secret } }), 'llm_args_judge.apiKey'],
    ['/v1/schedules', { name: 'keyed', interval_minutes: 60, run: run({ llm_args_agent: { 'x-api-key': secret } }) }, 'run.llm_args_agent.x-api-key'],
    ['/v1/episodes', { ...episode, llm_args_user: { client_secret: secret } }, 'llm_args_user.client_secret'],
  ] as const) {
    const sent = await send('POST', path, { body });
    check(
      sent.status === 400 && codeOf(sent) === 'invalid_request' && messageOf(sent).startsWith(`${field}: `) && !sent.text.includes(secret),
      `a credential in ${field} (${path}) → 400 naming it`,
      `${sent.status} ${messageOf(sent)}`,
    );
  }
  const listed = await send('GET', '/v1/runs?limit=200');
  check((await runs()) === before && !listed.text.includes(secret), 'no run is created for them, and the key is shown nowhere');
  const plain = await send('POST', '/v1/runs', { body: run({ llm_args_agent: { temperature: 0, max_tokens: 64 } }) });
  check(plain.status === 202, 'legitimate llm_args (temperature, max_tokens) → 202', `${plain.status}`);
  if (plain.status === 202) await waitDone((JSON.parse(plain.text) as { run_id: string }).run_id);
};

export const probeHardening = async (context: ProbeContext): Promise<void> => {
  await credentialArgs(context);
  await redirects(context);
  await endpointRules(context);
  await signInRedirect(context);
  await revokedStream(context);
  await doneEpisode(context);
  await forgedEpisodeIds(context);
  await strictBodies(context);
  await probeSockets(context);
};
