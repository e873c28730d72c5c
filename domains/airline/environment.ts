// Airline domain assembly: the flight DB, the policy, and the tasks (reference: src/tau2/domains/airline/environment.py).
import { parsePyJson } from '../../src/core/py/index.ts';
import { defineDomain } from '../../src/core/environment/domain.ts';
import type { DataSource, DomainData } from '../../src/core/environment/domain.ts';
import { freezeBase } from '../../src/core/environment/db-state.ts';
import { parseSplits, parseTasks } from '../../src/core/tasks.ts';
import { FlightDBSchema } from './data_model.ts';
import type { FlightDB } from './data_model.ts';
import { airlineTools } from './tools.ts';

const DIR = 'domains/airline';

export const AIRLINE_FILES = {
  db: `${DIR}/db.json`,
  policy: `${DIR}/policy.md`,
  tasks: `${DIR}/tasks.json`,
  splits: `${DIR}/split_tasks.json`,
} as const;

const load = async (source: DataSource): Promise<DomainData<FlightDB, null>> => {
  const [db, policy, tasks, splits] = await Promise.all(
    [AIRLINE_FILES.db, AIRLINE_FILES.policy, AIRLINE_FILES.tasks, AIRLINE_FILES.splits].map((path) => source.readText(path)),
  );
  return {
    db: freezeBase(FlightDBSchema.parse(parsePyJson(db!))),
    userDb: null,
    policy: policy!,
    soloPolicy: null,
    tasks: parseTasks(tasks!),
    splits: parseSplits(splits!),
  };
};

export const airlineDomain = defineDomain<FlightDB, null>({
  name: 'airline',
  agentToolkit: airlineTools,
  userToolkit: null,
  supportsSolo: false,
  parseDb: (value) => FlightDBSchema.parse(value),
  parseUserDb: null,
  load,
});
