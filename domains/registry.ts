// The registry of domains by name (reference: src/tau2/registry.py).
import type { AnyDomain } from '../src/core/environment/domain.ts';
import { airlineDomain } from './airline/index.ts';
import { bankingKnowledgeDomain } from './banking_knowledge/environment.ts';
import { mockDomain } from './mock/index.ts';
import { retailDomain } from './retail/index.ts';
import { telecomDomain, telecomWorkflowDomain } from './telecom/index.ts';

export const domains: Readonly<Record<string, AnyDomain>> = {
  mock: mockDomain,
  airline: airlineDomain,
  retail: retailDomain,
  telecom: telecomDomain,
  'telecom-workflow': telecomWorkflowDomain,
  banking_knowledge: bankingKnowledgeDomain,
};

export const getDomain = (name: string): AnyDomain => {
  const domain = Object.hasOwn(domains, name) ? domains[name] : undefined;
  if (!domain) throw new Error(`Unknown domain: ${name}. Available: ${Object.keys(domains).join(', ')}`);
  return domain;
};

/**
 * The reference registry's task sets (`--task-set-name`), each with the domain whose tasks file it loads:
 * telecom and telecom-workflow load one file.
 */
const TASK_SET_FILES: Readonly<Record<string, string>> = {
  mock: 'mock',
  airline: 'airline',
  retail: 'retail',
  telecom: 'telecom',
  'telecom-workflow': 'telecom',
  banking_knowledge: 'banking_knowledge',
};

/** Task sets the reference registers but tau2-edge cannot load, with the reason. */
const UNLOADABLE_TASK_SETS: Readonly<Record<string, string>> = {
  telecom_full:
    "the reference cannot load it at its pinned commit (its loader takes no task_split_name and fails with a TypeError); the same tasks are --task-set-name telecom --task-split-name full",
  telecom_small:
    "the reference cannot load it at its pinned commit (its loader takes no task_split_name and fails with a TypeError); the same tasks are --task-set-name telecom --task-split-name small",
};

/** Every task set name the reference registers. */
export const taskSetNames: readonly string[] = [...Object.keys(TASK_SET_FILES), ...Object.keys(UNLOADABLE_TASK_SETS)];

/** Why `domain` cannot run the tasks of `taskSet`, or null when it can (its own tasks file). */
export const taskSetRefusal = (domain: string, taskSet: string): string | null => {
  if (Object.hasOwn(UNLOADABLE_TASK_SETS, taskSet)) return `task set ${taskSet} cannot be loaded: ${UNLOADABLE_TASK_SETS[taskSet]}`;
  if (!Object.hasOwn(TASK_SET_FILES, taskSet)) return `unknown task set ${taskSet}. Available: ${taskSetNames.join(', ')}`;
  const own = Object.hasOwn(TASK_SET_FILES, domain) ? TASK_SET_FILES[domain] : domain;
  if (TASK_SET_FILES[taskSet] === own) return null;
  return `task set ${taskSet} holds the ${TASK_SET_FILES[taskSet]} domain's tasks, which the ${domain} domain's tools and database cannot run; a domain runs its own task set (telecom and telecom-workflow share one)`;
};
