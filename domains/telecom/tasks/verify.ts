// Checking a generated task on the telecom environment (reference: TaskManager.create_task's set-up
// assertions and TaskManager.verify_task): each issue's break takes effect when its set-up runs; and replaying
// the task, the world starts fixed, the init calls break it, no gold action but the last fixes it, after them
// it is fixed (a transfer task stays broken), and every assertion of the task holds.
import type { Environment } from '../../../src/core/environment/environment.ts';
import type { GeneratedTask } from './build-task.ts';
import type { IssueFamily } from './family.ts';
import { FAMILIES } from './generate.ts';
import { isAssertion, setUserInfo } from './issue.ts';
import type { AtomicIssue } from './issue.ts';
import { parseTaskId } from './task-id.ts';

const isFixed = (family: IssueFamily, env: Environment): boolean =>
  family.assertions(true).every((assertion) => env.runEnvAssertion(assertion));

/** Runs every issue's set-up in order; reports each break that did not take effect. */
const breakProblems = (issues: readonly AtomicIssue[], env: Environment): string[] => {
  env.runEnvFunctionCall(setUserInfo());
  return issues.flatMap((issue) =>
    issue.init.flatMap((step) => {
      if (!isAssertion(step)) {
        env.runEnvFunctionCall(step);
        return [];
      }
      return env.runEnvAssertion(step) ? [] : [`${issue.name}: ${step.message ?? `${step.func_name} not met`}`];
    }),
  );
};

/** Replays the task's init and gold actions; reports each way it does not behave as a task must. */
const replayProblems = (family: IssueFamily, task: GeneratedTask, env: Environment): string[] => {
  if (!isFixed(family, env)) return ['the environment starts broken'];
  env.setState(task.initial_state?.initialization_data ?? null, task.initial_state?.initialization_actions ?? null, []);
  const actions = task.evaluation_criteria?.actions ?? [];
  const problems: string[] = [];
  actions.forEach((action, i) => {
    if (isFixed(family, env)) problems.push(`fixed after ${i} action(s)`);
    env.makeToolCall(action.name, action.requestor, action.arguments);
    env.syncTools();
  });
  const fixable = !actions.some((a) => a.name === 'transfer_to_human_agents');
  if (isFixed(family, env) !== fixable) problems.push(fixable ? 'not fixed by the gold actions' : 'fixed, but must be transferred');
  const failed = (task.evaluation_criteria?.env_assertions ?? []).filter((a) => !env.runEnvAssertion(a));
  problems.push(...failed.map((a) => `assertion ${a.func_name}(${JSON.stringify(a.arguments)}) not met`));
  return problems;
};

/** What is wrong with the task, if anything: one line per failed check. */
export const verifyTask = (task: GeneratedTask, newEnvironment: () => Environment): string[] => {
  const id = parseTaskId(task.id);
  const family = FAMILIES.find((f) => f.name === id?.family);
  if (!id || !family) return [`no issue family for ${task.id}`];
  const known = family.selectionSets.flat();
  const issues = id.issues.map((name) => known.find((issue) => issue.name === name));
  if (issues.some((issue) => issue === undefined)) return [`unknown issue in ${task.id}`];
  return [...breakProblems(issues as AtomicIssue[], newEnvironment()), ...replayProblems(family, task, newEnvironment())];
};

/** Every failed check of the tasks, as `task id: problem`. */
export const verifyTasks = (tasks: readonly GeneratedTask[], newEnvironment: () => Environment): string[] =>
  tasks.flatMap((task) => {
    try {
      return verifyTask(task, newEnvironment).map((problem) => `${task.id}: ${problem}`);
    } catch (error) {
      return [`${task.id}: raised ${error instanceof Error ? error.message : String(error)}`];
    }
  });
