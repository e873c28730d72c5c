// `tau2-edge compare-modes` on two hand-built results files of the telecom domain.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { capture } from '../../support/cli.ts';

const S = '[service_issue]airplane_mode_on[PERSONA:None]';
const M = '[mms_issue]bad_wifi_calling[PERSONA:Easy]';

const simulation = (taskId: string, trial: number, reward: number | null) => ({
  id: `${taskId}-${trial}`,
  task_id: taskId,
  timestamp: '2026-01-01T00:00:00',
  start_time: '2026-01-01T00:00:00',
  end_time: '2026-01-01T00:00:01',
  duration: 1.0,
  termination_reason: reward === null ? 'infrastructure_error' : 'agent_stop',
  reward_info: reward === null ? null : { reward, reward_basis: ['ENV_ASSERTION'] },
  trial,
});

const resultsFile = async (dir: string, name: string, agent: string, domain: string, rewards: Record<string, (number | null)[]>) => {
  const file = path.join(dir, `${name}.json`);
  const results = {
    info: {
      git_commit: 'x',
      num_trials: 2,
      max_steps: 200,
      max_errors: 10,
      user_info: { implementation: agent === 'llm_agent_solo' ? 'dummy_user' : 'user_simulator', llm: 'gpt-4.1' },
      agent_info: { implementation: agent, llm: 'gpt-4.1' },
      environment_info: { domain_name: domain, policy: '' },
    },
    tasks: [],
    simulations: Object.entries(rewards).flatMap(([id, rs]) => rs.map((r, trial) => simulation(id, trial, r))),
  };
  await writeFile(file, JSON.stringify(results));
  return file;
};

describe('tau2-edge compare-modes', () => {
  it('prints pass^1 per mode and solo - default, overall and per issue type', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'tau2-edge-'));
    // default: S 1/2, M 0/1 (one infra error); solo: S 2/2, M 1/2.
    const def = await resultsFile(dir, 'default', 'llm_agent', 'telecom', { [S]: [1.0, 0.0], [M]: [0.0, null] });
    const solo = await resultsFile(dir, 'solo', 'llm_agent_solo', 'telecom', { [S]: [1.0, 1.0], [M]: [0.0, 1.0] });
    const { code, lines } = await capture(['compare-modes', '--default', def, '--solo', solo]);
    expect(code).toBe(0);
    expect(lines[0]).toBe('telecom: default llm_agent (gpt-4.1) vs solo llm_agent_solo (gpt-4.1)');
    expect(lines.slice(2).map((l) => l.split(/\s+/))).toEqual([
      ['overall', '2', '0.2500', '0.7500', '+0.5000'],
      ['mms_issue', '1', '0.0000', '0.5000', '+0.5000'],
      ['service_issue', '1', '0.5000', '1.0000', '+0.5000'],
      ['infrastructure', 'errors', 'excluded:', '1', 'in', 'default,', '0', 'in', 'solo'],
    ]);
  });

  it('refuses runs of different domains', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'tau2-edge-'));
    const def = await resultsFile(dir, 'default', 'llm_agent', 'telecom', { [S]: [1.0] });
    const solo = await resultsFile(dir, 'solo', 'llm_agent_solo', 'mock', { [S]: [1.0] });
    expect((await capture(['compare-modes', '--default', def, '--solo', solo])).code).toBe(1);
  });
});
