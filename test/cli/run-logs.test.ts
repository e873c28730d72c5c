// `tau2-edge run --log-level / --verbose-logs / --llm-log-mode`: log records at or above the level, and each
// simulation's model calls written where and as the reference writes them, never with a key.
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fakeProviderSuite } from '../support/fake-provider-suite.ts';
import { capture } from '../support/cli.ts';
import { parsePyJson } from '../../src/core/py/index.ts';
import { ResultsSchema } from '../../src/core/schemas/simulation.ts';

const suite = fakeProviderSuite('tau2-edge-logs-');

const run = (file: string, ...flags: string[]) =>
  capture(['run', '--in-process', '--domain', 'mock', '--task-ids', 'create_task_1', '--agent-llm', 'fake-agent', '--user-llm', 'fake-user',
    '--llm-base-url', suite.fake.baseURL, '--save-to', file, ...flags]);

/** The llm_debug files of the run's one simulation, by call name. */
const llmLogs = async (file: string): Promise<Record<string, string[]>> => {
  const results = ResultsSchema.parse(parsePyJson(await readFile(file, 'utf8')));
  const logDir = path.join(path.dirname(file), 'artifacts', 'task_create_task_1', `sim_${results.simulations[0]!.id}`, 'llm_debug');
  const byName: Record<string, string[]> = {};
  for (const name of (await readdir(logDir)).sort()) {
    const call = /^\d{8}_\d{6}_\d{3}_(\w+)_[0-9a-f]{8}\.json$/.exec(name)?.[1];
    expect(call, name).toBeDefined();
    (byName[call!] ??= []).push(await readFile(path.join(logDir, name), 'utf8'));
  }
  return byName;
};

describe('run logs', () => {
  it('--log-level INFO prints a record per finished simulation; the default (ERROR) does not', async () => {
    const quiet = await run(path.join(suite.dir, 'quiet', 'results.json'));
    expect(quiet.code).toBe(0);
    expect(quiet.text).not.toContain('FINISHED SIMULATION');
    const info = await run(path.join(suite.dir, 'info', 'results.json'), '--log-level', 'INFO');
    expect(info.text).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} \| INFO {5}\| tau2-edge - FINISHED SIMULATION: Domain: mock, Task: create_task_1, Reward: \d\.\d$/m);
    expect(quiet.text).not.toContain('artifacts');
  });

  it('--verbose-logs writes each model call beside the results (latest of each kind by default, every one with all), without keys', async () => {
    const latest = path.join(suite.dir, 'latest', 'results.json');
    // A key in llm args would be recorded with the results and the call logs: it is refused before anything runs.
    const secretArgs = '{"temperature": 0.0, "api_key": "sk-never-written", "extra_headers": {"Authorization": "Bearer sk-never-written"}}';
    const refused = await run(latest, '--verbose-logs', '--agent-llm-args', secretArgs);
    expect(refused.code).not.toBe(0);
    expect(refused.errors).toContain('--agent-llm-args: api_key is a credential');
    expect(refused.errors + refused.text).not.toContain('sk-never-written');
    await expect(readFile(latest, 'utf8')).rejects.toThrow();
    const { code, errors } = await run(latest, '--verbose-logs', '--agent-llm-args', '{"temperature": 0.0}');
    expect(code, errors).toBe(0);
    const calls = await llmLogs(latest);
    expect(Object.keys(calls).sort()).toEqual(['agent_response', 'user_simulator_response']);
    expect(calls.agent_response).toHaveLength(1);
    const agentCall = JSON.parse(calls.agent_response![0]!) as Record<string, Record<string, unknown>>;
    expect(Object.keys(agentCall)).toEqual(['call_id', 'call_name', 'timestamp', 'request', 'response']);
    expect(agentCall.request).toMatchObject({ model: 'fake-agent', tool_choice: 'auto', kwargs: { temperature: 0, num_retries: 3 } });
    expect(Object.keys(agentCall.request!.kwargs as object)).toEqual(['temperature', 'seed', 'num_retries']);
    // A multi-line content is a list of its lines, for reading.
    expect(((agentCall.request!.messages as { role: string; content: unknown }[])[0]!.content as string[]).length).toBeGreaterThan(1);
    expect(Object.keys(agentCall.response!)).toEqual(['timestamp', 'content', 'tool_calls', 'cost', 'usage', 'generation_time_seconds']);

    const all = path.join(suite.dir, 'all', 'results.json');
    await run(all, '--verbose-logs', '--llm-log-mode', 'all');
    const every = await llmLogs(all);
    const agentTurns = suite.fake.requests.filter((r) => (r.body as { model: string }).model === 'fake-agent').length;
    expect(every.agent_response!.length).toBeGreaterThan(1);
    expect(every.agent_response!.length).toBeLessThanOrEqual(agentTurns);
  });
});
