// Test access to domains with their fetched reference data, and environments on a fixed clock.
import { loadDomain } from '../../src/cli/data.ts';
import type { LoadedDomain } from '../../src/cli/data.ts';
import { Environment } from '../../src/core/environment/environment.ts';
import { isoTimestamp } from '../../src/core/orchestrator/clock.ts';
import type { Clock } from '../../src/core/orchestrator/clock.ts';

export const loaded = (name: string): Promise<LoadedDomain> => loadDomain(name);

/** A clock that advances one millisecond per reading, so timestamps are distinct and reproducible. */
export const steppingClock = (startMs = Date.UTC(2026, 0, 1)): Clock => {
  let now = startMs;
  return { nowMs: () => (now += 1) };
};

export const newEnvironment = async (name: string, solo = false): Promise<Environment> => {
  const { domain, data } = await loaded(name);
  const clock = steppingClock();
  return new Environment(domain, data, { solo, now: () => isoTimestamp(clock.nowMs()) });
};

let counter = 0;
export const sequentialIds = (): (() => string) => () => `sim-${++counter}`;
