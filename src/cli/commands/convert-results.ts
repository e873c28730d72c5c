// `tau2-edge convert-results PATH [--to json|dir] [--no-backup]`: a results file to the reference's other storage
// format, with its backups and messages (reference: `tau2 convert-results`).
import { copyFile, cp, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Option } from 'commander';
import { defineCommand } from '../cli-command.ts';
import type { CliContext } from '../cli-command.ts';
import { loadResults, resultsFormat, saveResults } from '../results-file.ts';
import type { ResultsFormat } from '../results-file.ts';

interface ConvertFlags {
  readonly to?: ResultsFormat;
  readonly backup: boolean;
}

const exists = (p: string): Promise<boolean> => stat(p).then(() => true, () => false);

/** `x.json` → `x.json.bak` (Python's `Path.with_suffix('.json.bak')`). */
const backupName = (file: string): string => `${file.slice(0, file.length - path.extname(file).length)}.json.bak`;

const convert = async (target: string, flags: ConvertFlags, out: (text: string) => void): Promise<number> => {
  const current = await resultsFormat(target);
  const wanted = flags.to ?? (current === 'dir' ? 'json' : 'dir');
  if (current === wanted) {
    out(`Results at ${target} are already in '${wanted}' format.`);
    return 0;
  }
  out(`Converting ${target}: '${current}' -> '${wanted}'`);
  const results = await loadResults(target);
  const meta = path.extname(target) === '.json' ? target : path.join(target, 'results.json');
  const simulations = path.join(path.dirname(meta), 'simulations');
  if (flags.backup) {
    const backup = backupName(meta);
    if (current === 'dir' && (await exists(simulations))) {
      const backupDir = path.join(path.dirname(meta), 'simulations.bak');
      await rm(backupDir, { recursive: true, force: true });
      await cp(simulations, backupDir, { recursive: true });
      await copyFile(meta, backup);
      out(`  Backup: ${backup}`);
      out(`  Backup: ${backupDir}`);
    } else {
      await copyFile(meta, backup);
      out(`  Backup: ${backup}`);
    }
  }
  if (wanted === 'dir') {
    await saveResults(meta, results, 'dir');
  } else {
    await saveResults(meta, results, 'json');
    await rm(simulations, { recursive: true, force: true });
  }
  out(`  Done. ${results.simulations.length} simulation(s) converted to '${wanted}' format.`);
  return 0;
};

export const convertResultsCommand = (ctx: CliContext) =>
  defineCommand(
    ctx,
    'convert-results',
    "convert a results file between the reference's formats: json (one file) and dir (results.json + simulations/)",
    ['convert-results data/simulations/my_run/results.json', 'convert-results data/simulations/my_run --to json --no-backup'],
    (command) =>
      command
        .argument('<path>', 'a results.json, or a results folder')
        .addOption(new Option('--to <format>', 'json or dir (default: the other one)').choices(['json', 'dir']))
        .option('--no-backup', 'make no .bak copy of the original'),
    (target: string, flags: ConvertFlags) => convert(target, flags, ctx.out),
  );
