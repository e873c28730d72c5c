// Probe checks of the USD budget and the schedule limit, run by scripts/probe.ts against its local worker: runs
// whose agent always fails still spend their user simulator's calls, and 30 of them launched at once against a
// small budget spend at most the budget; a model without a known price is refused under a budget; a tenant
// without a schedules quota keeps at most LIMIT_MAX_SCHEDULES (the probe's worker sets it).
import { httpError, mockConversation } from '../test/support/fake-openai.ts';
import type { FakeReply } from '../test/support/fake-openai.ts';
import type { ProbeContext, Sent } from './probe-hardening.ts';

const AT_ONCE = 30;
/** LIMIT_MAX_SCHEDULES of the probe's worker: the operator's var, lowered so that reaching it takes few requests. */
export const PROBE_MAX_SCHEDULES = 12;
/** Priced names the fake answers: the user simulator with PRICED_USAGE, the agent always with HTTP 500. */
const PRICED_USER = 'gpt-4.1';
const FAILING_AGENT = 'gpt-4.1-nano';
const PRICED_USAGE = { prompt_tokens: 500, completion_tokens: 50 };

const usdToday = async ({ send }: ProbeContext, tenant: string): Promise<number> =>
  (JSON.parse((await send('GET', `/v1/admin/tenants/${tenant}/quotas`)).text) as { usage: { usd_today: number } }).usage.usd_today;

const tenantKey = async ({ send }: ProbeContext, tenant: string): Promise<string> =>
  (JSON.parse((await send('POST', '/v1/admin/keys', { body: { tenant, name: tenant } })).text) as { key: string }).key;

const budget = async (context: ProbeContext): Promise<void> => {
  const { harness, send, check, run, waitDone } = context;
  const conversation = mockConversation();
  harness.fake.setHandler(async (request): Promise<FakeReply> => {
    const model = (request.body as { model?: string }).model;
    if (model === FAILING_AGENT) return httpError(500, 'scripted: this agent always fails');
    const reply = await conversation(request);
    return model === PRICED_USER ? ({ ...reply, usage: PRICED_USAGE } as FakeReply) : reply;
  });
  try {
    const key = await tenantKey(context, 'probe-budget');
    const usd = 0.02;
    await send('PUT', '/v1/admin/tenants/probe-budget/quotas', { body: { usd_per_day: usd } });
    const priced = { llm_agent: FAILING_AGENT, llm_user: PRICED_USER, llm_judge: PRICED_USER, llm_args_agent: { num_retries: 0, max_tokens: 100 }, llm_args_user: { max_tokens: 100 } };
    const unpriced = await send('POST', '/v1/runs', { key, body: run({ ...priced, llm_user: 'fake-user' }) });
    check(unpriced.status === 400 && unpriced.text.includes('fake-user') && unpriced.text.includes('usd_per_day'), 'a model without a known price under a USD budget → 400 naming it and the quota', `${unpriced.status}`);
    const launched: Sent[] = await Promise.all(Array.from({ length: AT_ONCE }, () => send('POST', '/v1/runs', { key, body: run({ ...priced, max_retries: 2 }) })));
    const ids = launched.filter((s) => s.status === 202).map((s) => (JSON.parse(s.text) as { run_id: string }).run_id);
    const statuses = [];
    for (const id of ids) statuses.push(await waitDone(id, key));
    // A stopped run's last calls return after it stops.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const spent = await usdToday(context, 'probe-budget');
    check(spent > 0, 'runs whose agent always fails (HTTP 500) still spend their user simulator calls', `usd_today ${spent}`);
    check(spent <= usd && statuses.includes('cancelled'), `${AT_ONCE} such runs at once against ${usd} USD spend at most the budget and are stopped by it`, `usd_today ${spent}, ${ids.length} launched`);
  } finally {
    harness.fake.setHandler(mockConversation());
  }
};

const scheduleCap = async (context: ProbeContext): Promise<void> => {
  const { send, check, run } = context;
  const key = await tenantKey(context, 'probe-schedule-cap');
  const max = PROBE_MAX_SCHEDULES;
  const answers: number[] = [];
  for (let i = 0; i <= max; i++) answers.push((await send('POST', '/v1/schedules', { key, body: { name: `cap ${i}`, interval_minutes: 1440, enabled: false, run: run() } })).status);
  check(answers.filter((s) => s === 201).length === max && answers.at(-1) === 429, `a tenant without a schedules quota: LIMIT_MAX_SCHEDULES ${max} kept, one more → 429`, `${answers.filter((s) => s === 201).length} created, last ${answers.at(-1)}`);
};

export const probeTenancy = async (context: ProbeContext): Promise<void> => {
  await budget(context);
  await scheduleCap(context);
};
