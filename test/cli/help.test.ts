// The command line's help, version and usage errors: every command explains itself with examples, typos get
// a suggestion, bad values are refused before anything starts, and usage errors exit 2 as argparse does.
import { describe, expect, it } from 'vitest';
import { capture } from '../support/cli.ts';
import packageJson from '../../package.json' with { type: 'json' };
import { domains } from '../../domains/registry.ts';

const COMMANDS = ['run', 'view', 'domain', 'tasks', 'check-data', 'evaluate-trajs', 'generate-tasks', 'compare', 'compare-modes', 'runs', 'rerun-infra-errors', 'intro', 'fork'];
const GROUPS = ['admin'];

describe('tau2-edge help and usage errors', () => {
  it.each(COMMANDS)('%s --help and help %s print its usage and examples, exit 0', async (name) => {
    for (const argv of [[name, '--help'], [name, '-h'], ['help', name]]) {
      const { code, text } = await capture(argv);
      expect(code).toBe(0);
      expect(text).toContain(`Usage: tau2-edge ${name}`);
      expect(text).toContain(`Examples:\n  $ tau2-edge ${name} `);
    }
  });

  it('admin keys create|list|revoke each have help with an example; a missing flag is a usage error', async () => {
    for (const action of ['create', 'list', 'revoke']) {
      const { code, text } = await capture(['admin', 'keys', action, '--help']);
      expect(code).toBe(0);
      expect(text).toContain(`Usage: tau2-edge admin keys ${action}`);
      expect(text).toContain(`$ tau2-edge admin keys ${action} `);
    }
    const missing = await capture(['admin', 'keys', 'list']);
    expect(missing.code).toBe(2);
    expect(missing.errors).toContain("required option '--api <url>' not specified");
  });

  it('-h, --help and no arguments list every command, exit 0', async () => {
    for (const argv of [['-h'], ['--help'], ['help'], []]) {
      const { code, text } = await capture(argv);
      expect(code).toBe(0);
      for (const name of [...COMMANDS, ...GROUPS]) expect(text).toContain(`  ${name} `);
    }
  });

  it('intro tours every domain and every command, with a first session to type', async () => {
    const { code, text } = await capture(['intro']);
    expect(code).toBe(0);
    for (const name of Object.keys(domains)) expect(text).toMatch(new RegExp(`^${name} {2,}\\S`, 'm'));
    for (const name of [...COMMANDS, ...GROUPS, 'play', 'submit', 'review']) expect(text).toMatch(new RegExp(`^tau2-edge ${name} {2,}\\S`, 'm'));
    expect(text).toContain('=== Quick Start ===');
    expect(text).toMatch(/^bin\/tau2-edge run --domain mock /m);
  });

  it('--version prints the version and the reference data commit', async () => {
    const { code, text } = await capture(['--version']);
    expect(code).toBe(0);
    expect(text).toMatch(new RegExp(`^tau2-edge ${packageJson.version.replaceAll('.', '\\.')} \\(tau2-bench data [0-9a-f]{40}\\)\\n$`));
  });

  it('a mistyped command or flag gets a did-you-mean and exit 2', async () => {
    const command = await capture(['rn', '--domain', 'mock']);
    expect(command.code).toBe(2);
    expect(command.errors).toContain("unknown command 'rn'\n(Did you mean run?)");
    const flag = await capture(['run', '--domain', 'mock', '--num-trails', '2']);
    expect(flag.code).toBe(2);
    expect(flag.errors).toContain("unknown option '--num-trails'\n(Did you mean --num-trials?)");
  });

  it('an unknown domain or a non-integer is refused before anything starts, naming the flag', async () => {
    const domain = await capture(['run', '--domain', 'mok', '--in-process']);
    expect(domain.code).toBe(2);
    expect(domain.errors).toContain("unknown domain 'mok'. Available: mock, airline, retail, telecom, telecom-workflow");
    const trials = await capture(['run', '--domain', 'mock', '--num-trials', 'two']);
    expect(trials.code).toBe(2);
    expect(trials.errors).toContain("option '--num-trials <n>' argument 'two' is invalid. invalid int value: 'two'");
  });

  it('a value the run configuration rejects reads as a field and a reason, not raw JSON', async () => {
    const { code, errors } = await capture(['run', '--in-process', '--domain', 'mock', '--num-trials', '0', '--llm-base-url', 'http://127.0.0.1:9/v1']);
    expect(code).toBe(1);
    expect(errors).toMatch(/invalid options:\n✖ .*\n {2}→ at num_trials/);
    expect(errors).not.toContain('"code"');
  });
});

describe('voice mode', () => {
  it("the reference's voice flags answer that voice mode is not supported, before anything starts", async () => {
    const { code, errors, text } = await capture(['run', '--domain', 'mock', '--in-process', '--audio-native', '--tick-duration', '0.2']);
    expect(code).toBe(1);
    expect(errors).toContain('voice mode is not supported: tau2-edge runs text mode only (got --audio-native, --tick-duration)');
    expect(text).not.toContain('results will be saved');
    expect((await capture(['run', '--help'])).text).toContain('Voice mode (--audio-native and its flags) is not supported');
  });

  // The voice flags of the reference's `tau2 run` (cli.py add_run_args).
  const referenceVoiceFlags = [
    'audio-native', 'audio-native-provider', 'audio-native-model', 'cascaded-config', 'reasoning-effort', 'tick-duration',
    'max-steps-seconds', 'speech-complexity', 'pcm-sample-rate', 'telephony-rate', 'wait-to-respond-other', 'wait-to-respond-self',
    'yield-when-interrupted', 'yield-when-interrupting', 'interruption-check-interval', 'integration-duration',
    'silence-annotation-threshold', 'audio-debug', 'audio-taps',
  ];
  for (const flag of referenceVoiceFlags) {
    it(`--${flag} alone: a non-zero exit naming it`, async () => {
      const { code, errors } = await capture(['run', '--domain', 'mock', '--in-process', `--${flag}`, '1']);
      expect(code).toBe(1);
      expect(errors).toContain(`voice mode is not supported: tau2-edge runs text mode only (got --${flag})`);
    });
  }
});
