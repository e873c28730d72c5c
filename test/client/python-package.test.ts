// The Python client as a package (clients/python): its wheel is built and installed, with the gymnasium extra
// (and mypy beside it), into a fresh virtual environment of /usr/bin/python3, from pip's configured sources;
// then, against a local Worker, the README's first rollout, gymnasium's env_checker, the synchronous env inside a
// running event loop, the errors, the vector env and the GRPO example run from that environment (never from the
// source tree).
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execa, execaSync } from 'execa';
import { startHarness } from '../support/load-harness.ts';
import type { Harness } from '../support/load-harness.ts';
import { mockConversation } from '../support/fake-openai.ts';

const PYTHON = '/usr/bin/python3';
const CLIENT = path.resolve('clients/python');
const API_KEY = 'python-package-test-key';
/** venv and pip for /usr/bin/python3 (Debian's python3-venv and python3-pip; scripts/test.sh installs them). */
const canInstall = execaSync(PYTHON, ['-c', 'import venv, pip'], { reject: false }).exitCode === 0;
/** No retries of an index that cannot be reached (machines whose sources are local only). */
const PIP_ENV = { PIP_RETRIES: '0', PIP_DISABLE_PIP_VERSION_CHECK: '1' };
/**
 * The environment's Python writes the bytecode of what it imports (whatever the caller's PYTHONDONTWRITEBYTECODE):
 * pip compiles nothing ahead (`--no-compile`), so the first script compiles the few modules the tests import and
 * the later ones reuse them, rather than pip compiling every module of numpy, gymnasium and mypy.
 */
const PYTHON_ENV = { PYTHONDONTWRITEBYTECODE: '' };

let harness: Harness;
let work: string;
let venvPython: string;
/** mypy, installed into the environment with the package, checking it while the tests run. */
let typeCheck: Promise<{ exitCode?: number; stdout: string; stderr: string }>;

/** Builds the wheel from a copy of the source (a build writes into its tree) and installs it with gymnasium and mypy. */
const installPackage = async (): Promise<void> => {
  const source = path.join(work, 'source');
  cpSync(CLIENT, source, { recursive: true, filter: (from) => !from.includes('__pycache__') });
  const venv = path.join(work, 'venv');
  const pip = (args: readonly string[]) => execa(PYTHON, ['-m', 'pip', '--python', path.join(venv, 'bin/python'), ...args], { env: PIP_ENV, timeout: 240_000 });
  await execa(PYTHON, ['-m', 'venv', '--without-pip', venv]);
  await pip(['wheel', '--no-deps', '--wheel-dir', path.join(work, 'wheels'), source]);
  // The package with its extra, and mypy, in one resolution and one start of pip.
  await pip(['install', '--no-compile', `${path.join(work, 'wheels', 'tau2_edge-0.1.0-py3-none-any.whl')}[gymnasium]`, 'mypy']);
  venvPython = path.join(venv, 'bin/python');
  // The package as installed, then the examples as a user's code: these read its types through py.typed.
  const mypy = (target: readonly string[]) =>
    execa(venvPython, ['-m', 'mypy', '--strict', '--cache-dir', path.join(work, 'mypy-cache'), ...target], { cwd: work, env: PYTHON_ENV, reject: false });
  // Awaited rather than chained with .then: execa's subprocess type costs the typecheck seconds there.
  typeCheck = (async () => {
    const installed = await mypy(['-p', 'tau2_edge']);
    return installed.exitCode === 0 ? await mypy([path.join(CLIENT, 'examples')]) : installed;
  })();
  typeCheck.catch(() => undefined);
};

beforeAll(async () => {
  if (!canInstall) return;
  work = mkdtempSync(path.join(tmpdir(), 'tau2-edge-python-'));
  [harness] = await Promise.all([startHarness(mockConversation(), { workerVars: { API_KEY } }), installPackage()]);
}, 300_000);
afterAll(async () => {
  await harness?.close();
  if (work) rmSync(work, { recursive: true, force: true });
}, 60_000);

/** Runs the installed package's Python in a folder without the source, so imports come from the wheel. */
const python = (args: readonly string[], env: Record<string, string> = {}) =>
  execa(venvPython, args, { cwd: work, env: { ...PYTHON_ENV, TAU2_EDGE_URL: harness.worker().url, TAU2_EDGE_API_KEY: API_KEY, ...env }, timeout: 120_000, reject: false });

const lines = (stdout: string): string[] => stdout.trim().split('\n');

describe.skipIf(!canInstall)('the Python package (skipped without venv and pip for /usr/bin/python3)', () => {
  it('installs from its wheel with the websockets range, the gymnasium extra and py.typed', async () => {
    const script = `
import importlib.metadata as m, json, tau2_edge
files = [str(f) for f in m.files("tau2-edge")]
print(json.dumps({"requires": m.requires("tau2-edge"), "python": m.metadata("tau2-edge")["Requires-Python"],
  "typed": "tau2_edge/py.typed" in files, "from": tau2_edge.__file__.startswith(${JSON.stringify(work)}), "gymnasium": tau2_edge.HAS_GYMNASIUM}))
`;
    const result = await python(['-c', script]);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      requires: ['websockets<18,>=10.4', 'gymnasium<2,>=1.1; extra == "gymnasium"'],
      python: '>=3.9',
      typed: true,
      from: true,
      gymnasium: true,
    });
  }, 60_000);

  it('is typed: mypy --strict passes on the installed package and its examples', async () => {
    const result = await typeCheck;
    expect(result.exitCode, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^Success: no issues found in \d+ source files/);
  }, 240_000);

  it("runs the README's first rollout as written, to reward 1.0", async () => {
    const readme = readFileSync(path.join(CLIENT, 'README.md'), 'utf8');
    const rollout = /## The first rollout\s+```python\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(rollout?.trim().split('\n').length).toBeLessThanOrEqual(10);
    const result = await python(['-c', rollout!]);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout.trim()).toBe('reward 1.0');
  }, 120_000);

  it("is a gymnasium.Env that passes gymnasium's env_checker, registered as tau2_edge/Tau2Edge-v0", async () => {
    const script = `
import json, os, warnings, gymnasium
from gymnasium.utils.env_checker import check_env
import tau2_edge
env = gymnasium.make("tau2_edge/Tau2Edge-v0", base_url=os.environ["TAU2_EDGE_URL"], api_key=os.environ["TAU2_EDGE_API_KEY"], domain="mock", task_id="create_task_1").unwrapped
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    check_env(env)
obs, info = env.reset(seed=7)
step = env.step("create_task(user_id='user_1', title='Important Meeting')")
print(json.dumps({"env": isinstance(env, gymnasium.Env), "spaces": [repr(env.observation_space), repr(env.action_space)],
  "warnings": [str(w.message) for w in caught], "reset": [type(obs).__name__, sorted(info)], "step": [type(v).__name__ for v in step],
  "tool": step[0].startswith("tool: "),
  "contains": [env.observation_space.contains(t) for t in ["user: café ✓\\n{\\"a\\": [1]}", "x" * 16777217, 1]]}))
env.close()
env.close()
`;
    const result = await python(['-c', script]);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      env: true,
      spaces: ['FreeText(16777216)', 'FreeText(65536)'],
      warnings: [],
      reset: ['str', ['policy', 'simulation_run', 'tools']],
      step: ['str', 'float', 'bool', 'bool', 'dict'],
      tool: true,
      contains: [true, false, false],
    });
  }, 120_000);

  it('runs synchronously inside a running event loop, as in a Jupyter cell', async () => {
    const script = `
import asyncio, os
from tau2_edge import Tau2EdgeEnv, play_rollouts
url, key = os.environ["TAU2_EDGE_URL"], os.environ["TAU2_EDGE_API_KEY"]
GOLD = ["create_task(user_id='user_1', title='Important Meeting')", "Your task has been created."]
async def cell():
    env = Tau2EdgeEnv(url, key, "mock", "create_task_1")
    env.reset()
    env.step(GOLD[0])
    print("reward", env.step(GOLD[1])[1])
    env.close()
    results = play_rollouts(3, url, key, "mock", ["create_task_1"], lambda obs, info: GOLD[0] if obs.startswith("user:") else GOLD[1])
    print("rollouts", [r["reward"] for r in results])
asyncio.run(cell())
`;
    const result = await python(['-c', script]);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(lines(result.stdout)).toEqual(['reward 1.0', 'rollouts [1.0, 1.0, 1.0]']);
  }, 120_000);

  it("raises exceptions a user can act on: a refused key names the server; OpenEnv's codes have their own", async () => {
    const script = `
import asyncio, os
import tau2_edge
from tau2_edge import Session, Tau2EdgeEnv
url, key = os.environ["TAU2_EDGE_URL"], os.environ["TAU2_EDGE_API_KEY"]
def attempt(label, base, api_key, task="create_task_1", options=None):
    env = Tau2EdgeEnv(base, api_key, "mock", task)
    try:
        env.reset(options=options)
        print(label, "no error")
    except tau2_edge.Tau2EdgeError as error:
        code = getattr(error, "code", None)
        print(label, type(error).__name__, isinstance(error, tau2_edge.OpenEnvError), code, error.server == base.rstrip("/"), str(error))
    finally:
        env.close()
attempt("key", url, "wrong-key")
attempt("unreachable", "http://127.0.0.1:1", key)
attempt("domain", url, key, options={"domain": "no_such_domain"})
async def join():
    session = await Session.open(url, key)
    try:
        await session.reset(episode_id="no-such-episode")
    except tau2_edge.OpenEnvError as error:
        print("join", type(error).__name__, isinstance(error, tau2_edge.Tau2EdgeError), error.code, error.server == url.rstrip("/"), str(error))
    finally:
        await session.close()
asyncio.run(join())
`;
    const result = await python(['-c', script]);
    expect(result.exitCode, result.stderr).toBe(0);
    const [key, unreachable, domain, join] = lines(result.stdout);
    expect(key).toBe(`key AuthenticationError False None True ${harness.worker().url} refused the API key (HTTP 401: Missing or invalid API key (Authorization: Bearer <key>)); check the key given as api_key or TAU2_EDGE_API_KEY`);
    expect(unreachable).toMatch(/^unreachable ServerUnreachableError False None True cannot reach http:\/\/127\.0\.0\.1:1: /);
    expect(domain).toMatch(/^domain ValidationError True VALIDATION_ERROR True /);
    expect(join).toMatch(/^join FactoryError True FACTORY_ERROR True /);
  }, 120_000);

  it('plays N sessions at once through gymnasium.make_vec, resetting an ended episode on the next step', async () => {
    const script = `
import json, os, gymnasium
import tau2_edge
envs = gymnasium.make_vec("tau2_edge/Tau2Edge-v0", num_envs=3, vectorization_mode="vector_entry_point",
    base_url=os.environ["TAU2_EDGE_URL"], api_key=os.environ["TAU2_EDGE_API_KEY"], domain="mock", task_id="create_task_1")
obs, infos = envs.reset(seed=10)
print(json.dumps({"vector": isinstance(envs, gymnasium.vector.VectorEnv), "obs": [o.split(chr(10))[0] for o in obs], "tools": [len(t) > 0 for t in infos["tools"]]}))
for action in ["create_task(user_id='user_1', title='Important Meeting')", "Your task has been created."]:
    obs, rewards, terminated, truncated, infos = envs.step([action] * 3)
    print(json.dumps({"rewards": rewards.tolist(), "terminated": terminated.tolist(), "truncated": truncated.tolist()}))
obs, rewards, terminated, truncated, infos = envs.step(["ignored"] * 3)
print(json.dumps({"reset": [o.startswith("user: ") for o in obs], "rewards": rewards.tolist(), "terminated": terminated.tolist()}))
envs.close()
`;
    const result = await python(['-c', script]);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(lines(result.stdout).map((line) => JSON.parse(line) as unknown)).toEqual([
      { vector: true, obs: Array(3).fill('user: Hi! Could you list the users, please?'), tools: [true, true, true] },
      { rewards: [0, 0, 0], terminated: [false, false, false], truncated: [false, false, false] },
      { rewards: [1, 1, 1], terminated: [true, true, true], truncated: [false, false, false] },
      { reset: [true, true, true], rewards: [0, 0, 0], terminated: [false, false, false] },
    ]);
  }, 120_000);

  it('refuses a vector env it cannot make, and a batch of the wrong size, naming the argument', async () => {
    const script = `
from gymnasium.vector import AutoresetMode
from tau2_edge import Tau2EdgeVectorEnv
def attempt(label, make):
    try:
        make()
        print(label, "accepted")
    except ValueError as error:
        print(label, error)
attempt("num_envs", lambda: Tau2EdgeVectorEnv("http://127.0.0.1:1", "k", "mock", "create_task_1", num_envs=0))
attempt("tasks", lambda: Tau2EdgeVectorEnv("http://127.0.0.1:1", "k", "mock", [], num_envs=2))
attempt("autoreset", lambda: Tau2EdgeVectorEnv("http://127.0.0.1:1", "k", "mock", "create_task_1", autoreset_mode=AutoresetMode.SAME_STEP))
envs = Tau2EdgeVectorEnv("http://127.0.0.1:1", "k", "mock", "create_task_1", num_envs=2)
attempt("actions", lambda: envs.step(["a"]))
attempt("seeds", lambda: envs.reset(seed=[1, 2, 3]))
`;
    const result = await python(['-c', script]);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(lines(result.stdout)).toEqual([
      'num_envs num_envs must be at least 1, with at least one task_id',
      'tasks num_envs must be at least 1, with at least one task_id',
      'autoreset autoreset_mode AutoresetMode.SAME_STEP is not offered: NEXT_STEP or DISABLED',
      'actions 1 actions for 2 environments',
      'seeds 3 seeds for 2 environments',
    ]);
  }, 60_000);

  it("grpo_groups.py collects a task's group at once and scores each episode against the group", async () => {
    const result = await python([path.join(CLIENT, 'examples/grpo_groups.py'), '--base', harness.worker().url, '--api-key', API_KEY, '--group', '4']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ task: 'create_task_1', rewards: [1, 0, 1, 0], advantages: [1, -1, 1, -1] });
  }, 120_000);
});
