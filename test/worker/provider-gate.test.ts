// The per-provider cap: at most `cap` leases at once over all runs; a released or expired lease frees a slot,
// a waiter gets the freed slot, and a restarted gate still counts the leases in flight.
import { env } from 'cloudflare:workers';
import { abortAllDurableObjects, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { LEASE_TTL_MS, ProviderGateDO } from '../../src/worker/runs/provider-gate.ts';
import { getRun, startRun, waitForRun } from './support/api.ts';
import { SCRIPT_MODELS, scriptedRun } from './support/script.ts';
import { episodeKey } from '../../src/worker/episode/launch.ts';

describe('ProviderGateDO', () => {
  it('grants at most `cap` holders, renews a holder, and frees a slot on release', async () => {
    const gate = env.PROVIDER_GATE.getByName('gate-test-1');
    expect(await gate.acquire('a', 2)).toBe(true);
    expect(await gate.acquire('b', 2)).toBe(true);
    expect(await gate.acquire('c', 2)).toBe(false);
    expect(await gate.acquire('a', 2)).toBe(true);
    await gate.release('a');
    expect(await gate.acquire('c', 2)).toBe(true);
    expect(await gate.inFlight()).toBe(2);
  });

  it('keeps counting leases in flight across a restart, and frees the slot of one never released', async () => {
    const gate = env.PROVIDER_GATE.getByName('gate-test-2');
    expect(await gate.acquire('lost', 1)).toBe(true);
    expect(await gate.acquire('next', 1)).toBe(false);
    // Leases live in memory; storage is what a restarted gate reads them back from.
    await abortAllDurableObjects();
    const restarted = env.PROVIDER_GATE.getByName('gate-test-2');
    expect(await restarted.acquire('next', 1)).toBe(false);
    expect(await restarted.inFlight()).toBe(1);
    await runInDurableObject(restarted, (_instance: ProviderGateDO, state) => {
      state.storage.sql.exec('UPDATE leases SET expires_at = ?', Date.now() - LEASE_TTL_MS);
    });
    await abortAllDurableObjects();
    expect(await env.PROVIDER_GATE.getByName('gate-test-2').acquire('next', 1)).toBe(true);
  });

  it('lets a waiter in as soon as a slot frees, in arrival order, and answers false when the wait runs out', async () => {
    const gate = env.PROVIDER_GATE.getByName('gate-test-3');
    expect(await gate.acquire('a', 1)).toBe(true);
    const first = gate.acquire('b', 1, 5_000);
    const second = gate.acquire('c', 1, 5_000);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await gate.release('a');
    expect(await first).toBe(true);
    expect(await gate.inFlight()).toBe(1);
    await gate.release('b');
    expect(await second).toBe(true);
    expect(await gate.acquire('d', 1, 100)).toBe(false);
  });
});

describe('concurrency', () => {
  it("never runs more episodes of a run at once than its max_concurrency", async () => {
    const runId = await startRun(scriptedRun({ llm_agent: SCRIPT_MODELS.slowAgent, max_concurrency: 2 }));
    let run = await getRun(runId);
    let peak = 0;
    while (run.status === 'running') {
      peak = Math.max(peak, run.counts.running);
      expect(run.counts.running).toBeLessThanOrEqual(2);
      await new Promise((resolve) => setTimeout(resolve, 50));
      run = await getRun(runId);
    }
    expect(peak).toBe(2);
    expect(run.counts.done).toBe(10);
  });

  it('shares the provider cap (4 in the tests) among all runs', async () => {
    const gate = env.PROVIDER_GATE.getByName(new URL(env.OPENAI_BASE_URL).host);
    const body = scriptedRun({ llm_agent: SCRIPT_MODELS.slowAgent, max_concurrency: 4 });
    const runIds = await Promise.all([startRun(body), startRun(body)]);
    let peakLeases = 0;
    let peakRunning = 0;
    for (;;) {
      const runs = await Promise.all(runIds.map((id) => getRun(id)));
      peakLeases = Math.max(peakLeases, await gate.inFlight());
      peakRunning = Math.max(peakRunning, runs[0]!.counts.running + runs[1]!.counts.running);
      if (runs.every((r) => r.status !== 'running')) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(peakRunning).toBeGreaterThan(4);
    expect(peakLeases).toBeLessThanOrEqual(4);
    expect(peakLeases).toBeGreaterThan(0);
  });

  it('with every slot of the cap taken, an episode waits (nothing produced in place) and its queued turn is produced once a slot frees', async () => {
    const gate = env.PROVIDER_GATE.getByName(new URL(env.OPENAI_BASE_URL).host);
    const holders = ['held-0', 'held-1', 'held-2', 'held-3'];
    for (const holder of holders) expect(await gate.acquire(holder, 4)).toBe(true);
    const runId = await startRun(scriptedRun({ task_ids: ['create_task_1'] }));
    const episode = env.EPISODE.getByName(episodeKey(runId, { task_id: 'create_task_1', trial: 0 }));
    const waiting = await episode.pendingTurn();
    expect(waiting).not.toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await episode.pendingTurn())?.step).toBe(waiting!.step);
    await gate.release(holders[0]!);
    const run = await waitForRun(runId);
    expect(run.counts).toMatchObject({ done: 1, infra_error: 0 });
    for (const holder of holders.slice(1)) await gate.release(holder);
  });
});
