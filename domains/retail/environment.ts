// Retail domain assembly: data files, toolkit and policy (reference: src/tau2/domains/retail/environment.py).
import { parsePyJson } from '../../src/core/py/index.ts';
import { defineDomain } from '../../src/core/environment/domain.ts';
import type { DataSource } from '../../src/core/environment/domain.ts';
import { freezeBase } from '../../src/core/environment/db-state.ts';
import { parseSplits, parseTasks } from '../../src/core/tasks.ts';
import { RetailDBSchema } from './data_model.ts';
import { retailTools } from './tools.ts';
import { RETAIL_GOLD_ACTION_ERRORS } from './known-issues.ts';

const DIR = 'domains/retail';

export const RETAIL_FILES = {
  db: `${DIR}/db.json`,
  policy: `${DIR}/policy.md`,
  tasks: `${DIR}/tasks.json`,
  splits: `${DIR}/split_tasks.json`,
} as const;

const load = async (source: DataSource) => {
  const [db, policy, tasks, splits] = await Promise.all(
    [RETAIL_FILES.db, RETAIL_FILES.policy, RETAIL_FILES.tasks, RETAIL_FILES.splits].map((path) => source.readText(path)),
  );
  return {
    db: freezeBase(RetailDBSchema.parse(parsePyJson(db!))),
    userDb: null,
    policy: policy!,
    soloPolicy: null,
    tasks: parseTasks(tasks!),
    splits: parseSplits(splits!),
  };
};

export const retailDomain = defineDomain({
  name: 'retail',
  agentToolkit: retailTools,
  userToolkit: null,
  supportsSolo: false,
  goldActionErrors: RETAIL_GOLD_ACTION_ERRORS,
  parseDb: (value) => RetailDBSchema.parse(value),
  parseUserDb: null,
  load,
});
