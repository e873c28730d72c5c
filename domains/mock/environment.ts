// Mock domain assembly: data files, toolkits and policies (reference: src/tau2/domains/mock/environment.py).
import { parsePyJson } from '../../src/core/py/index.ts';
import { defineDomain } from '../../src/core/environment/domain.ts';
import type { DataSource } from '../../src/core/environment/domain.ts';
import { freezeBase } from '../../src/core/environment/db-state.ts';
import { parseSplits, parseTasks } from '../../src/core/tasks.ts';
import { MockDBSchema } from './data_model.ts';
import { MockUserDBSchema } from './user_data_model.ts';
import { mockTools } from './tools.ts';
import { mockUserTools } from './user_tools.ts';

const DIR = 'domains/mock';

export const MOCK_FILES = {
  db: `${DIR}/db.json`,
  userDb: `${DIR}/user_db.json`,
  policy: `${DIR}/policy.md`,
  soloPolicy: `${DIR}/policy_solo.md`,
  tasks: `${DIR}/tasks.json`,
  splits: `${DIR}/split_tasks.json`,
} as const;

const load = async (source: DataSource) => {
  const [db, userDb, policy, soloPolicy, tasks, splits] = await Promise.all(
    [MOCK_FILES.db, MOCK_FILES.userDb, MOCK_FILES.policy, MOCK_FILES.soloPolicy, MOCK_FILES.tasks, MOCK_FILES.splits].map(
      (path) => source.readText(path),
    ),
  );
  return {
    db: freezeBase(MockDBSchema.parse(parsePyJson(db!))),
    userDb: freezeBase(MockUserDBSchema.parse(parsePyJson(userDb!))),
    policy: policy!,
    soloPolicy: soloPolicy!,
    tasks: parseTasks(tasks!),
    splits: parseSplits(splits!),
  };
};

export const mockDomain = defineDomain({
  name: 'mock',
  agentToolkit: mockTools,
  userToolkit: mockUserTools,
  supportsSolo: true,
  knownIssues: {
    update_task_with_history_and_env_assertions:
      'it lists no gold actions, but its env assertion needs task_2 completed (update_task_status), so playing ' +
      'the gold actions alone cannot pass; an agent that completes task_2 scores 1.0',
    update_task_with_user_tools:
      'its env assertion needs notif_1 read, but no gold action dismisses it, so the gold user DB keeps it unread ' +
      'and the DB check fails whenever the assertion passes',
  },
  parseDb: (value) => MockDBSchema.parse(value),
  parseUserDb: (value) => MockUserDBSchema.parse(value),
  load,
});
