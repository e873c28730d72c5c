// Telecom domain assembly: the two DBs, the policy assembled from a main policy and a tech-support policy,
// and the registry variants `telecom` (tech-support manual) and `telecom-workflow` (tech-support workflow)
// (reference: src/tau2/domains/telecom/environment.py, utils.py; src/tau2/registry.py).
import { parseToml } from '../../src/core/py/index.ts';
import { defineDomain } from '../../src/core/environment/domain.ts';
import type { AnyDomain, DataSource, DomainData } from '../../src/core/environment/domain.ts';
import { freezeBase } from '../../src/core/environment/db-state.ts';
import { parseSplits, parseTasks } from '../../src/core/tasks.ts';
import { TelecomDBSchema } from './data_model.ts';
import type { TelecomDB } from './data_model.ts';
import { TelecomUserDBSchema } from './user_data_model.ts';
import type { TelecomUserDB } from './user_data_model.ts';
import { telecomTools } from './tools.ts';
import { telecomUserTools } from './user_tools.ts';
import { syncTelecom } from './sync.ts';

const DIR = 'domains/telecom';

export const TELECOM_FILES = {
  db: `${DIR}/db.toml`,
  userDb: `${DIR}/user_db.toml`,
  mainPolicy: `${DIR}/main_policy.md`,
  mainPolicySolo: `${DIR}/main_policy_solo.md`,
  techSupportManual: `${DIR}/tech_support_manual.md`,
  techSupportWorkflow: `${DIR}/tech_support_workflow.md`,
  techSupportWorkflowSolo: `${DIR}/tech_support_workflow_solo.md`,
  tasks: `${DIR}/tasks.json`,
  splits: `${DIR}/split_tasks.json`,
} as const;

export type TelecomPolicyType = 'manual' | 'workflow';

/** The tech-support policy files of each variant, for dual control and for solo mode. */
const TECH_SUPPORT: Readonly<Record<TelecomPolicyType, { readonly dual: string; readonly solo: string }>> = {
  // The manual has no solo variant: solo mode uses the same file.
  manual: { dual: TELECOM_FILES.techSupportManual, solo: TELECOM_FILES.techSupportManual },
  workflow: { dual: TELECOM_FILES.techSupportWorkflow, solo: TELECOM_FILES.techSupportWorkflowSolo },
};

/** The agent's policy: both files verbatim, each wrapped in its tag. */
export const telecomPolicy = (mainPolicy: string, techSupportPolicy: string): string =>
  `<main_policy>\n${mainPolicy}\n</main_policy>\n<tech_support_policy>\n${techSupportPolicy}\n</tech_support_policy>`;

const loader =
  (policyType: TelecomPolicyType) =>
  async (source: DataSource): Promise<DomainData<TelecomDB, TelecomUserDB>> => {
    const tech = TECH_SUPPORT[policyType];
    const read = (path: string) => source.readText(path);
    const [db, userDb, main, mainSolo, techDual, techSolo, tasks, splits] = await Promise.all([
      read(TELECOM_FILES.db),
      read(TELECOM_FILES.userDb),
      read(TELECOM_FILES.mainPolicy),
      read(TELECOM_FILES.mainPolicySolo),
      read(tech.dual),
      read(tech.solo),
      read(TELECOM_FILES.tasks),
      read(TELECOM_FILES.splits),
    ]);
    return {
      db: freezeBase(TelecomDBSchema.parse(parseToml(db))),
      userDb: freezeBase(TelecomUserDBSchema.parse(parseToml(userDb))),
      policy: telecomPolicy(main, techDual),
      soloPolicy: telecomPolicy(mainSolo, techSolo),
      tasks: parseTasks(tasks),
      splits: parseSplits(splits),
    };
  };

const telecomVariant = (name: string, policyType: TelecomPolicyType): AnyDomain =>
  defineDomain<TelecomDB, TelecomUserDB>({
    name,
    agentToolkit: telecomTools,
    userToolkit: telecomUserTools,
    supportsSolo: true,
    parseDb: (value) => TelecomDBSchema.parse(value),
    parseUserDb: (value) => TelecomUserDBSchema.parse(value),
    syncTools: syncTelecom,
    load: loader(policyType),
  });

export const telecomDomain = telecomVariant('telecom', 'manual');
export const telecomWorkflowDomain = telecomVariant('telecom-workflow', 'workflow');
