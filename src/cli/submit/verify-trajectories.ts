// `submit verify-trajs`: the public checks of each trajectory file, printed as the reference prints them
// (reference: src/tau2/scripts/leaderboard/verify_trajectories.py). Exit 1 when a file fails or none is found.
import { access } from 'node:fs/promises';
import { checkNumTrials, checkTasks } from '../../core/submission/verify-trajectories.ts';
import type { CheckOutcome } from '../../core/submission/verify-trajectories.ts';
import { selectTasks } from '../../core/tasks.ts';
import type { Results } from '../../core/schemas/simulation.ts';
import { loadDomain } from '../data.ts';
import { expandPaths } from '../expand-paths.ts';
import { loadResults } from '../results-file.ts';

type Out = (line: string) => void;

const RULE = '='.repeat(60);

const baseTasks = async (results: Results) => {
  const domain = results.info.environment_info.domain_name;
  const { data } = await loadDomain(domain);
  return selectTasks(domain, data.tasks, data.splits, { split: 'base' });
};

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

const verifyFile = async (file: string, out: Out): Promise<boolean> => {
  out(`\n📁 ${file}`);
  out('Verification mode: public');
  let results: Results;
  try {
    results = await loadResults(file);
  } catch (error) {
    out(`  ❌ Format validation: Error loading results: ${errorText(error)}`);
    return false;
  }
  out('  ✅ Format validation');
  const checks: [string, CheckOutcome][] = [
    ['Tasks validation', checkTasks(results, await baseTasks(results))],
    ['Trial count validation', checkNumTrials(results)],
  ];
  for (const [name, outcome] of checks) out(outcome.ok ? `  ✅ ${name}` : `  ❌ ${name}: ${outcome.error}`);
  return checks.every(([, outcome]) => outcome.ok);
};

const present = (file: string) => access(file).then(() => true, () => false);

/** Verifies every trajectory file the paths name; 0 when all pass. */
export const verifyTrajectories = async (paths: readonly string[], out: Out): Promise<number> => {
  const files = await expandPaths(paths, '.json', out);
  if (files.length === 0) {
    out('❌ No trajectory files found');
    return 1;
  }
  out(`\n🔍 Verifying ${files.length} trajectory file(s)`);
  const failed: string[] = [];
  for (const file of files) {
    if (!(await present(file))) {
      out(`\n📁 ${file}`);
      out('  ❌ File does not exist');
      failed.push(file);
    } else if (!(await verifyFile(file, out))) failed.push(file);
  }
  out('');
  out(RULE);
  out(`📊 Summary: ${files.length} file(s) processed`);
  if (failed.length === 0) {
    out('🎉 All files passed all checks!');
    return 0;
  }
  out(`✅ ${files.length - failed.length} file(s) passed`);
  out(`❌ ${failed.length} file(s) failed`);
  out('');
  out('Failed files:');
  for (const file of failed) out(`  • ${file}`);
  return 1;
};
