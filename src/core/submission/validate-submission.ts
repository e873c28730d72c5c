// The checks across a submission's trajectory files and between its submission.json and the figures they
// give (reference: validate_submission_traj_set and validate_submission_metrics in
// src/tau2/scripts/leaderboard/prepare_submission.py).
import { pyDictHash, pyRepr, pyStr } from '../py/index.ts';
import type { PyInput } from '../py/index.ts';
import type { Results } from '../schemas/simulation.ts';
import { domainResults } from './domain-results.ts';
import { domainResultsOf } from './submission.ts';
import type { DomainResults, Submission } from './submission.ts';
import type { CheckOutcome } from './verify-trajectories.ts';

/** Each domain once, and one agent and one user simulator (with the same arguments) throughout. */
export const validateTrajectorySet = (all: readonly Results[]): CheckOutcome => {
  const domains = new Set<string>();
  for (const results of all) {
    const domain = results.info.environment_info.domain_name;
    if (domains.has(domain)) return { ok: false, error: `Domain ${domain} appears multiple times` };
    domains.add(domain);
  }
  let first: PyInput | null = null;
  for (const results of all) {
    const { agent_info: agent, user_info: user } = results.info;
    const participants = {
      llm_agent: agent.llm,
      llm_args_agent: agent.llm_args,
      llm_user: user.llm,
      llm_args_user: user.llm_args,
    } as unknown as PyInput;
    if (first === null) first = participants;
    else if (pyDictHash(participants) !== pyDictHash(first)) {
      return {
        ok: false,
        error: `Agent / User Simulator should be the same for all results. Got ${pyRepr(first)} and ${pyRepr(participants)}`,
      };
    }
  }
  return { ok: true };
};

/** Each domain's figures, with the agent and user models of the first file (the submission's defaults). */
export const submissionFigures = (all: readonly Results[]) => {
  const byDomain = new Map<string, DomainResults>();
  for (const results of all) {
    const domain = results.info.environment_info.domain_name;
    if (byDomain.has(domain)) throw new Error(`Domain ${domain} appears multiple times`);
    byDomain.set(domain, domainResults(results));
  }
  return {
    byDomain,
    model: all[0]?.info.agent_info.llm ?? null,
    userSimulator: all[0]?.info.user_info.llm ?? null,
  };
};

const KEYS = [
  ['pass_1', 'Pass^1'],
  ['pass_2', 'Pass^2'],
  ['pass_3', 'Pass^3'],
  ['pass_4', 'Pass^4'],
  ['cost', 'Cost'],
] as const;

const same = (a: DomainResults[keyof DomainResults], b: DomainResults[keyof DomainResults]): boolean =>
  (typeof a === 'object' && typeof b === 'object' ? a.value === b.value : a === b);

/** Where submission.json disagrees with the figures its trajectories give, one warning each. */
export const metricsWarnings = (submission: Submission, all: readonly Results[]): string[] => {
  const warnings: string[] = [];
  const figures = submissionFigures(all);
  if (submission.model_name !== figures.model) {
    warnings.push(`Model name ${submission.model_name} does not match model used for the trajectories set ${pyStr(figures.model)}`);
  }
  const simulator = submission.methodology?.user_simulator;
  if (submission.methodology !== undefined && simulator !== figures.userSimulator) {
    warnings.push(
      `User simulator ${pyStr(simulator ?? null)} does not match user simulator used for the trajectories set ${pyStr(figures.userSimulator)}`,
    );
  }
  for (const [domain, computed] of figures.byDomain) {
    const submitted = domainResultsOf(submission.results, domain);
    if (submitted === undefined) {
      warnings.push(`Domain ${domain} found in trajectories but missing from submission.json`);
      continue;
    }
    for (const [key, label] of KEYS) {
      if (!same(submitted[key], computed[key])) {
        warnings.push(`${label} for ${domain} does not match computed results ${pyStr(computed[key] ?? null)}`);
      }
    }
  }
  return warnings;
};
