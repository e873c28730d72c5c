// The Python client (clients/python/tau2_edge) against a local Worker, run by /usr/bin/python3: the gym example
// plays mock create_task_1 with its gold actions to reward 1.0, rollouts drive many sessions at once, and
// OpenEnv's own GenericEnvClient and MCPToolClient (from its source, when its repository is on this machine; the
// latter with pydantic 2 on OPENENV_PYTHONPATH) speak to the server.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execa, execaSync } from 'execa';
import { startHarness } from '../support/load-harness.ts';
import type { Harness } from '../support/load-harness.ts';
import { mockConversation } from '../support/fake-openai.ts';

const PYTHON = '/usr/bin/python3';
const CLIENT = path.resolve('clients/python');
const API_KEY = 'python-client-test-key';
const OPENENV_REPO = process.env.OPENENV_REPO ?? '/work/.mirror/meta-pytorch+OpenEnv/repo';
/** Where pydantic 2 is for OpenEnv's MCPToolClient (its types are pydantic models; /usr/bin/python3 has none). */
const OPENENV_PYTHONPATH = process.env.OPENENV_PYTHONPATH ?? '';
const hasPydantic2 = execaSync(PYTHON, ['-c', 'import pydantic; assert pydantic.VERSION.startswith("2")'], { env: { PYTHONPATH: OPENENV_PYTHONPATH }, reject: false }).exitCode === 0;

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness(mockConversation(), { workerVars: { API_KEY } });
}, 120_000);
afterAll(() => harness?.close());

const python = (args: readonly string[], input?: string, pythonPath = CLIENT) =>
  execa(PYTHON, args, { cwd: CLIENT, env: { PYTHONPATH: pythonPath }, ...(input === undefined ? {} : { input }), timeout: 120_000, reject: false });

describe('Python client', () => {
  it('gym_gold.py plays mock create_task_1 with its gold actions and prints reward 1.0', async () => {
    const result = await python(['examples/gym_gold.py', '--base', harness.worker().url, '--api-key', API_KEY]);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toContain('user: Hi! Could you list the users, please?');
    expect(result.stdout.trim().split('\n').at(-1)).toBe('reward 1.0');
  }, 120_000);

  it('a wrong key raises AuthenticationError naming the server; an unparsable action answers as the reference gym does', async () => {
    const script = `
import json, sys
from tau2_edge import Tau2EdgeEnv
env = Tau2EdgeEnv(sys.argv[1], sys.argv[2], "mock", "create_task_1")
obs, info = env.reset()
print(json.dumps(sorted(info)))
print(json.dumps(env.step("get_users(x=)")[:4]))
env.close()
try:
    Tau2EdgeEnv(sys.argv[1], "wrong", "mock", "create_task_1").reset()
except Exception as error:
    print("refused", type(error).__name__, error.status, error.server == sys.argv[1].rstrip("/"))
`;
    const result = await python(['-c', script, harness.worker().url, API_KEY]);
    expect(result.exitCode, result.stderr).toBe(0);
    const [keys, invalid, refused] = result.stdout.trim().split('\n');
    expect(JSON.parse(keys!)).toEqual(['policy', 'simulation_run', 'tools']);
    const [observation, reward, terminated, truncated] = JSON.parse(invalid!) as [string, number, boolean, boolean];
    expect(observation).toMatch(/^Invalid action with error: /);
    expect([reward, terminated, truncated]).toEqual([0, false, false]);
    expect(refused).toBe('refused AuthenticationError 401 True');
  }, 120_000);

  it('rollouts drive many sessions at once, each graded', async () => {
    const script = `
import asyncio, json, sys
from tau2_edge import rollouts
GOLD = ["create_task(user_id='user_1', title='Important Meeting')", "Done: your task Important Meeting is created."]
def policy(observation, info):
    return GOLD[0] if "list the users" in observation else GOLD[1]
results = asyncio.run(rollouts(12, sys.argv[1], sys.argv[2], "mock", ["create_task_1"], policy, concurrency=6))
print(json.dumps([[r["reward"], r["steps"], json.loads(r["info"]["reward_info"]).get("reward"), json.loads(r["info"]["simulation_run"]).get("task_id")] for r in results]))
`;
    const result = await python(['-c', script, harness.worker().url, API_KEY]);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(Array.from({ length: 12 }, () => [1, 2, 1, 'create_task_1']));
  }, 120_000);

  it.skipIf(!existsSync(OPENENV_REPO))("OpenEnv's own GenericEnvClient plays the episode (skipped without OpenEnv's repository, OPENENV_REPO)", async () => {
    const result = await python([path.resolve('test/support/openenv_client_check.py'), '--openenv-repo', OPENENV_REPO, '--base', harness.worker().url, '--api-key', API_KEY]);
    expect(result.exitCode, result.stderr).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines[0]).toBe('reset {"reward": null, "done": false, "roles": ["assistant", "user"]}');
    expect(lines[1]).toBe('step {"reward": null, "done": false, "roles": ["tool"]}');
    expect(lines[2]).toBe('step {"reward": 1.0, "done": true, "roles": ["user"]}');
    expect(JSON.parse(lines[3]!.slice('state '.length))).toMatchObject({ step_count: 2, task_id: 'create_task_1', done: true });
    expect(lines[4]).toMatch(/^error Server error: .* \(code: VALIDATION_ERROR\)$/);
  }, 120_000);

  it.skipIf(!existsSync(OPENENV_REPO))("OpenEnv's own GenericEnvClient resets into a fork of an episode (fork_of) and plays it to 1.0 (skipped without OpenEnv's repository)", async () => {
    const result = await python([path.resolve('test/support/openenv_client_check.py'), '--fork', '--openenv-repo', OPENENV_REPO, '--base', harness.worker().url, '--api-key', API_KEY]);
    expect(result.exitCode, result.stderr).toBe(0);
    const [fork, end] = result.stdout.trim().split('\n');
    expect(fork).toBe('fork {"done": false, "step": 0, "same_messages": true, "new_episode": true}');
    expect(end).toBe('end {"reward": 1.0, "done": true}');
  }, 120_000);

  it.skipIf(!existsSync(OPENENV_REPO) || !hasPydantic2)(
    "OpenEnv's own MCPToolClient lists and calls the agent's tools (skipped without OpenEnv's repository, or pydantic 2 on OPENENV_PYTHONPATH)",
    async () => {
      const result = await python([path.resolve('test/support/openenv_client_check.py'), '--mcp', '--openenv-repo', OPENENV_REPO, '--base', harness.worker().url, '--api-key', API_KEY], undefined, OPENENV_PYTHONPATH);
      expect(result.exitCode, result.stderr).toBe(0);
      const [reset, tools, called, step, state] = result.stdout.trim().split('\n').map((line) => JSON.parse(line.slice(line.indexOf(' ') + 1)) as Record<string, unknown>);
      // The reset's chat-completions tools read as a ListToolsObservation of nameless tools; list_tools asks again.
      expect(reset).toEqual({ observation: 'ListToolsObservation', tool_names: [''], done: false });
      expect(tools).toMatchObject({ create_task_required: ['user_id', 'title'] });
      expect(tools!.names).toEqual(expect.arrayContaining(['create_task', 'get_users', 'update_task_status']));
      expect(called).toMatchObject({ title: 'Important Meeting', status: 'pending' });
      expect(step).toEqual({ observation: 'Observation', reward: 1.0, done: true });
      expect(state).toMatchObject({ step_count: 2 });
    },
    120_000,
  );
});
