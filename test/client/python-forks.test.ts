// The Python client's forks against a local Worker, run by /usr/bin/python3: `env.reset(fork_of=, at_step=)`
// continues an episode from its step K (OpenEnv reset with fork_of), and `fork_group` opens n continuations in one
// call (POST /v1/episodes/batch with fork_of) and joins each; stepped with the gold actions, every continuation
// ends with reward 1.0. A step beyond the episode is refused, naming at_step.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { startHarness } from '../support/load-harness.ts';
import type { Harness } from '../support/load-harness.ts';
import { mockConversation } from '../support/fake-openai.ts';

const PYTHON = '/usr/bin/python3';
const CLIENT = path.resolve('clients/python');
const API_KEY = 'python-forks-test-key';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness(mockConversation(), { workerVars: { API_KEY } });
}, 120_000);
afterAll(() => harness?.close());

const python = (script: string) =>
  execa(PYTHON, ['-c', script, harness.worker().url, API_KEY], { cwd: CLIENT, env: { PYTHONPATH: CLIENT }, timeout: 120_000, reject: false });

/** Opens a source episode of mock create_task_1 (the user has asked, step 1), then runs `body`. */
const withSource = (body: string) => `
import asyncio, json, sys
from tau2_edge import AsyncTau2EdgeEnv, fork_group
BASE, KEY = sys.argv[1], sys.argv[2]
GOLD = ["create_task(user_id='user_1', title='Important Meeting')", "Done: your task Important Meeting is created."]
async def play(env, observation):
    reward, done = 0.0, False
    for action in GOLD:
        observation, reward, done, _, _ = await env.step(action)
        if done:
            break
    return reward, done
async def main():
    source = AsyncTau2EdgeEnv(BASE, KEY, "mock", "create_task_1")
    first, _ = await source.reset()
    state = await source.state()
${body}
    await source.close()
asyncio.run(main())
`;

describe('Python client forks', () => {
  it('env.reset(fork_of=, at_step=) continues from the source\'s step: the same messages, and the gold actions reach reward 1.0', async () => {
    const result = await python(withSource(`
    fork = AsyncTau2EdgeEnv(BASE, KEY, "mock", "create_task_1")
    observation, _ = await fork.reset(fork_of=state["episode_id"], at_step=1)
    print(json.dumps([observation == first, (await fork.state())["episode_id"] != state["episode_id"]]))
    print(json.dumps(await play(fork, observation)))
    await fork.close()
    try:
        await AsyncTau2EdgeEnv(BASE, KEY, "mock", "create_task_1").reset(fork_of=state["episode_id"])
    except ValueError as error:
        print(str(error))
`));
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout.trim().split('\n')).toEqual(['[true, true]', '[1.0, true]', 'fork_of and at_step go together']);
  }, 120_000);

  it('fork_group opens n continuations in one call, each joined and stepped to reward 1.0; a step beyond the episode names at_step', async () => {
    const result = await python(withSource(`
    group = await fork_group(BASE, KEY, "mock", "create_task_1", state["episode_id"], 1, 4)
    print(json.dumps([observation == first for _, observation, _ in group]))
    print(len({(await env.state())["episode_id"] for env, _, _ in group}))
    print(json.dumps(await asyncio.gather(*(play(env, observation) for env, observation, _ in group))))
    for env, _, _ in group:
        await env.close()
    try:
        await fork_group(BASE, KEY, "mock", "create_task_1", state["episode_id"], 999, 2)
    except Exception as error:
        print(type(error).__name__, error.status, "at_step" in str(error))
`));
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout.trim().split('\n')).toEqual([
      '[true, true, true, true]',
      '4',
      '[[1.0, true], [1.0, true], [1.0, true], [1.0, true]]',
      'HandshakeError 400 True',
    ]);
  }, 120_000);

  it('examples/fork_groups.py collects a GRPO group from a shared prefix: the gold forks 1.0, the others 0.0', async () => {
    const result = await execa(PYTHON, ['examples/fork_groups.py', '--base', harness.worker().url, '--api-key', API_KEY, '--group', '4'], {
      cwd: CLIENT, env: { PYTHONPATH: CLIENT }, timeout: 120_000, reject: false,
    });
    expect(result.exitCode, result.stderr).toBe(0);
    const { rewards, advantages } = JSON.parse(result.stdout) as { rewards: number[]; advantages: number[] };
    expect(rewards).toEqual([1, 0, 1, 0]);
    expect(advantages.map(Math.sign)).toEqual([1, -1, 1, -1]);
  }, 120_000);
});
