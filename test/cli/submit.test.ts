// `tau2-edge submit verify-trajs|validate|prepare` print what the reference's `tau2 submit` prints, exit as
// it exits, and write the same submission.json, on the same trajectory files (test/fixtures/README.md).
import { spawn } from 'node:child_process';
import { mkdir, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import packageJson from '../../package.json' with { type: 'json' };
import { loadResults, saveResults } from '../../src/cli/results-file.ts';
import { capture } from '../support/cli.ts';
import { regradeFixtureText } from '../support/regrade.ts';
import { expectedText, sortSets, submissionExpected, submissionWorkspace } from '../support/submission.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

let root: string;
beforeAll(async () => {
  root = await submissionWorkspace();
}, 60_000);

/** The command's output followed by `rc=<exit code>`, as the fixtures record the reference's. */
const run = async (argv: string[]): Promise<string> => {
  const { text, code } = await capture(argv);
  return `${sortSets(text)}rc=${code}\n`;
};

const files = (...names: string[]) => names.map((n) => path.join(root, 'files', n));

/** bin/tau2-edge with `input` on stdin: its output followed by `rc=<exit code>`. */
const runWithInput = (args: string[], input: string): Promise<string> =>
  new Promise((resolve, reject) => {
    const child = spawn(path.join(repoRoot, 'bin', 'tau2-edge'), args);
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve(`${out}rc=${code}\n`));
    child.stdin.end(input);
  });

const localToday = (): string => {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
};

describe('submit verify-trajs', () => {
  it.each([
    ['airline', 'airline.json'],
    ['retail', 'retail.json'],
    ['missing_tasks', 'airline-missing_tasks.json'],
    ['extra_task', 'airline-extra_task.json'],
    ['changed_task', 'airline-changed_task.json'],
    ['missing_trial', 'airline-missing_trial.json'],
  ])('%s: the reference\'s checks, lines and exit code', async (name, file) => {
    expect(await run(['submit', 'verify-trajs', ...files(file)])).toBe(expectedText(submissionExpected.verify[name]!, root));
  });

  it('results files the reference wrote load, and fail the task check for the base tasks they lack', async () => {
    for (const [domain, fixture] of [
      ['mock', 'mock-results-b3.json'],
      ['airline', 'airline-results-regrade.json'],
    ] as const) {
      const text = await regradeFixtureText({ domain, fixture: new URL(`../fixtures/${fixture}`, import.meta.url), policy: `domains/${domain}/policy.md` });
      await writeFile(path.join(root, 'files', domain === 'mock' ? 'mock-b3.json' : 'airline-regrade.json'), text);
    }
    const output = await run(['submit', 'verify-trajs', ...files('mock-b3.json', 'airline-regrade.json')]);
    expect(output).toBe(expectedText(submissionExpected.verify['refprod']!, root));
  });

  it('a folder in the dir format is read through its results.json', async () => {
    const dir = path.join(root, 'dir-format');
    await saveResults(path.join(dir, 'results.json'), await loadResults(files('airline.json')[0]!), 'dir');
    const output = await capture(['submit', 'verify-trajs', dir]);
    expect(output.lines).toContain(`📁 ${path.join(dir, 'results.json')}`);
    expect(output.lines.at(-1)).toBe('🎉 All files passed all checks!');
    expect(output.code).toBe(0);
  });

  it('an unreadable file fails the format check; a pattern matching nothing is warned about; nothing found exits 1', async () => {
    const output = await capture(['submit', 'verify-trajs', ...files('broken.json', 'retail.json'), path.join(root, 'nothing-*.json')]);
    expect(output.lines[0]).toBe(`Warning: No files found for pattern: ${path.join(root, 'nothing-*.json')}`);
    expect(output.text).toContain(`📁 ${files('broken.json')[0]}\nVerification mode: public\n  ❌ Format validation: Error loading results: `);
    expect(output.lines.slice(-4)).toEqual(['✅ 1 file(s) passed', '❌ 1 file(s) failed', 'Failed files:', `  • ${files('broken.json')[0]}`]);
    expect(output.code).toBe(1);
    const none = await capture(['submit', 'verify-trajs', path.join(root, 'nothing-*.json')]);
    expect(none.lines.at(-1)).toBe('❌ No trajectory files found');
    expect(none.code).toBe(1);
  });
});

describe('submit validate', () => {
  it.each(['ok', 'metrics', 'nonexistent', 'no-submission', 'no-trajectories', 'duplicate', 'participants', 'failing'])(
    '%s: the reference\'s verdict, warnings and exit code',
    async (name) => {
      expect(await run(['submit', 'validate', path.join(root, 'v', name)])).toBe(expectedText(submissionExpected.validate[name]!, root));
    },
  );

  it('a submission.json the schema refuses is an error naming the field, exit 1', async () => {
    const dir = path.join(root, 'v', 'invalid');
    await mkdir(path.join(dir, 'trajectories'), { recursive: true });
    const submission = JSON.parse(submissionExpected.prepare.submission_json.replaceAll('{{today}}', '2026-11-25'));
    submission.results.airline.pass_1 = 150;
    submission.contact_info.phone = '555';
    await writeFile(path.join(dir, 'submission.json'), JSON.stringify(submission));
    const { code, errors } = await capture(['submit', 'validate', dir]);
    expect(code).toBe(1);
    expect(errors).toContain('→ at results.airline.pass_1');
    expect(errors).toContain('Input should be less than or equal to 100');
    expect(errors).toContain('→ at contact_info');
  });
});

describe('submit prepare', () => {
  it('with the same answers, the reference\'s questions, output, submission.json and trajectories/', async () => {
    const out = path.join(root, 'out');
    const output = await runWithInput(['submit', 'prepare', ...files('airline.json', 'retail.json'), '-o', out], submissionExpected.prepare.answers);
    const today = localToday();
    // The one default that differs: the version offered is tau2-edge's own, where the reference offers its package's.
    const expected = expectedText(submissionExpected.prepare.output, root, today).replace(
      'Tau-bench version (dev): ',
      `Tau-bench version (tau2-edge ${packageJson.version}): `,
    );
    expect(output).toBe(`${expected}rc=0\n`);
    const dir = path.join(out, `gpt-4-1-mini_openai_${today}`);
    expect(await readFile(path.join(dir, 'submission.json'), 'utf8')).toBe(submissionExpected.prepare.submission_json.replaceAll('{{today}}', today));
    expect((await readdir(path.join(dir, 'trajectories'))).sort()).toEqual(['airline.json', 'retail.json']);
    for (const name of ['airline.json', 'retail.json']) {
      const [copy, source] = [path.join(dir, 'trajectories', name), files(name)[0]!];
      expect(await readFile(copy, 'utf8')).toBe(await readFile(source, 'utf8'));
      // Copied with its modification time, as shutil.copy2 does (to the millisecond Node sets it with).
      expect(Math.abs((await stat(copy)).mtimeMs - (await stat(source)).mtimeMs)).toBeLessThan(1);
    }
    // What prepare wrote passes validate, metrics included.
    const validated = await capture(['submit', 'validate', dir]);
    expect(validated.lines.at(-1)).toBe('  • Model name GPT-4.1 Mini does not match model used for the trajectories set gpt-4.1-2025-04-14');
  }, 60_000);

  it.each(['participants', 'failing'])('%s: refused as the reference refuses it, nothing written', async (name) => {
    const args = name === 'participants' ? files('airline.json', 'retail-other.json') : files('airline-missing_trial.json');
    const out = path.join(root, `refused-${name}`);
    expect(await runWithInput(['submit', 'prepare', ...args, '-o', out], '')).toBe(
      expectedText(submissionExpected.prepare[`refused_${name}`]!, root),
    );
    await expect(stat(out)).rejects.toThrow();
  }, 60_000);

  it('a file named results.json is copied as <domain>_results.json', async () => {
    const run = path.join(root, 'run-folder');
    await mkdir(run, { recursive: true });
    await writeFile(path.join(run, 'results.json'), await readFile(files('airline.json')[0]!, 'utf8'));
    const out = path.join(root, 'from-folder');
    const output = await runWithInput(['submit', 'prepare', run, '-o', out, '--no-verify'], submissionExpected.prepare.answers);
    expect(output).toContain(`Found 1 trajectory file(s):\n  • ${path.join(run, 'results.json')}\n`);
    expect(output).not.toContain('Running trajectory verification');
    expect(output).toContain('  📂 trajectories/airline_results.json (1.5 MB)');
    const [folder] = await readdir(out);
    expect(await readdir(path.join(out, folder!, 'trajectories'))).toEqual(['airline_results.json']);
    const submission = JSON.parse(await readFile(path.join(out, folder!, 'submission.json'), 'utf8'));
    expect(submission.trajectory_files).toEqual({ airline: 'airline_results.json' });
    expect(Object.keys(submission.results)).toEqual(['airline']);
  }, 60_000);

  it('answers outside the choices are asked again; input that ends before the questions do is an error', async () => {
    const answers = submissionExpected.prepare.answers.split('\n');
    answers.splice(8, 1, 'maybe', 'custom');
    const output = await runWithInput(['submit', 'prepare', ...files('airline.json'), '-o', path.join(root, 'again')], answers.join('\n'));
    expect(output).toContain('Submission type [standard/custom] (standard): Please select one of the available options\nSubmission type');
    expect(output).toContain('🎉 Submission prepared successfully!');
    const cut = await runWithInput(['submit', 'prepare', ...files('airline.json'), '-o', path.join(root, 'cut')], 'GPT\n');
    expect(cut).toMatch(/rc=1\n$/);
  }, 60_000);
});

describe('submit help', () => {
  it('submit lists prepare, validate and verify-trajs; each has help with an example', async () => {
    const group = await capture(['submit', '--help']);
    expect(group.code).toBe(0);
    for (const name of ['prepare', 'validate', 'verify-trajs']) {
      expect(group.text).toContain(`  ${name} `);
      for (const argv of [['submit', name, '--help'], ['submit', 'help', name]]) {
        const { code, text } = await capture(argv);
        expect(code).toBe(0);
        expect(text).toContain(`Usage: tau2-edge submit ${name}`);
        expect(text).toContain(`Examples:\n  $ tau2-edge submit ${name} `);
      }
    }
  });

  it('prepare without -o is a usage error naming the flag; --voice is refused', async () => {
    const missing = await capture(['submit', 'prepare', 'x.json']);
    expect(missing.code).toBe(2);
    expect(missing.errors).toContain("required option '-o, --output <dir>' not specified");
    const voice = await capture(['submit', 'prepare', 'x.json', '-o', root, '--voice']);
    expect(voice.code).toBe(1);
    expect(voice.errors).toContain('voice submissions are not supported: tau2-edge runs text mode only');
  });
});
