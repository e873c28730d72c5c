// The simulated shell: every allowed command, pipes and flags, the sandbox's refusals, read-only mode, and
// write-mode changes kept in a serialisable state.
import { describe, expect, it } from 'vitest';
import {
  EMPTY_SHELL_STATE,
  KB_DIR,
  SHELL_COMMANDS,
  ShellStateSchema,
  createShell,
  DISK_FULL,
  WRITE_BUDGET_BYTES,
  formatShellResult,
} from '../../../src/core/knowledge/shell.ts';
import type { KnowledgeDocument } from '../../../src/core/knowledge/documents.ts';
import { knowledgeDocuments } from '../../support/knowledge.ts';

const docs: KnowledgeDocument[] = [
  { id: 'doc_wire_001', title: 'Wire Fees', content: 'Domestic wire fee: $15.\nInternational wire fee: $45.\n' },
  { id: 'doc_card_(general)_002', title: 'Card Replacement', content: 'Lost card replacement is free.' },
];
const WIRE = 'doc_wire_001.md';
const CARD = 'doc_card__general__002.md';
const WIRE_TEXT = '# Wire Fees\n\nDomestic wire fee: $15.\nInternational wire fee: $45.\n';
const CARD_TEXT = '# Card Replacement\n\nLost card replacement is free.';

const tool = async (command: string, mode: 'read' | 'write' = 'read') => {
  const shell = createShell(docs, { mode });
  return formatShellResult(command, await shell.run(command));
};

// One command line per allowed command, with what it prints in the knowledge-base directory.
const EVERY_COMMAND: Record<string, [string, string]> = {
  echo: ['echo fee', 'fee\n'],
  cat: [`cat ${CARD}`, CARD_TEXT],
  printf: ["printf '%s-%d\\n' fee 15", 'fee-15\n'],
  ls: ['ls', `INDEX.md\n${CARD}\n${WIRE}\n`],
  mkdir: ['mkdir notes && ls -d notes', 'notes\n'],
  rmdir: ['mkdir notes && rmdir notes && ls', `INDEX.md\n${CARD}\n${WIRE}\n`],
  touch: ['touch a.md && ls a.md', 'a.md\n'],
  rm: [`rm ${CARD} && ls`, `INDEX.md\n${WIRE}\n`],
  cp: [`cp ${CARD} copy.md && cat copy.md`, CARD_TEXT],
  mv: [`mv ${CARD} moved.md && ls`, `INDEX.md\n${WIRE}\nmoved.md\n`],
  ln: [`ln -s ${CARD} link.md && cat link.md`, CARD_TEXT],
  chmod: [`chmod 600 ${CARD} && echo ok`, 'ok\n'],
  pwd: ['pwd', `${KB_DIR}\n`],
  readlink: [`ln -s ${CARD} link.md && readlink link.md`, `${CARD}\n`],
  head: [`head -n 1 ${WIRE}`, '# Wire Fees\n'],
  tail: [`tail -n 1 ${WIRE}`, 'International wire fee: $45.\n'],
  wc: [`wc -l ${WIRE}`, `4 ${WIRE}\n`],
  stat: [`stat -c %s ${CARD}`, `${CARD_TEXT.length}\n`],
  grep: ['grep -il "WIRE FEE" *.md', `INDEX.md\n${WIRE}\n`],
  fgrep: [`fgrep '$15' ${WIRE}`, 'Domestic wire fee: $15.\n'],
  egrep: [`egrep -o '\\$[0-9]+' ${WIRE}`, '$15\n$45\n'],
  rg: [`rg -c wire ${WIRE}`, '3\n'],
  sed: [`sed -n '3p' ${WIRE}`, 'Domestic wire fee: $15.\n'],
  awk: [`awk -F: '/fee/ {print $2}' ${WIRE}`, ' $15.\n $45.\n'],
  sort: [`sort -r ${WIRE} | head -n 1`, 'International wire fee: $45.\n'],
  uniq: ['printf "a\\na\\nb\\nb\\nb\\n" | uniq -c | sort -rn', '      3 b\n      2 a\n'],
  comm: ['printf "a\\nb\\n" > x && printf "b\\nc\\n" > y && comm -12 x y', 'b\n'],
  cut: [`cut -d: -f1 ${WIRE} | tail -n 2`, 'Domestic wire fee\nInternational wire fee\n'],
  paste: ['printf "a\\nb\\n" | paste -s -d , -', 'a,b\n'],
  tr: ['echo fee | tr a-z A-Z', 'FEE\n'],
  rev: ['echo fee | rev', 'eef\n'],
  nl: [`nl -ba ${CARD} | head -n 1`, '     1\t# Card Replacement\n'],
  fold: ['echo abcdef | fold -w 3', 'abc\ndef\n'],
  expand: ['printf "a\\tb\\n" | expand -t 4', 'a   b\n'],
  unexpand: ['printf "a       b\\n" | unexpand -a', 'a\tb\n'],
  strings: [`strings ${CARD}`, '# Card Replacement\nLost card replacement is free.\n'],
  split: [`split -l 2 ${WIRE} part_ && cat part_ab`, 'Domestic wire fee: $15.\nInternational wire fee: $45.\n'],
  column: ['printf "a b\\ncc d\\n" | column -t', 'a   b\ncc  d\n'],
  join: ['printf "1 a\\n" > x && printf "1 b\\n" > y && join x y', '1 a b\n'],
  tee: ['echo fee | tee out.md && cat out.md', 'fee\nfee\n'],
  find: ['find . -name "doc_w*"', `./${WIRE}\n`],
  basename: [`basename ./${WIRE} .md`, 'doc_wire_001\n'],
  dirname: [`dirname ./${WIRE}`, '.\n'],
  // Sizes in 1K blocks, rounded up (GNU du counts allocated blocks, usually 4).
  du: [`du ${CARD}`, `1\t${CARD}\n`],
  env: ['env | grep ^USER=', 'USER=kb_user\n'],
  printenv: ['printenv USER', 'kb_user\n'],
  xargs: ['ls doc_* | xargs grep -l Lost', `${CARD}\n`],
  true: ['true && echo yes', 'yes\n'],
  false: ['false || echo no', 'no\n'],
  bash: ['bash -c "echo nested"', 'nested\n'],
  sh: ['sh -c "echo nested"', 'nested\n'],
  base64: ['echo fee | base64', 'ZmVlCg==\n'],
  diff: [`diff ${CARD} ${CARD} && echo same`, 'same\n'],
  seq: ['seq 3', '1\n2\n3\n'],
  expr: ['expr 15 + 45', '60\n'],
  md5sum: ['echo fee | md5sum', 'd98700558a089bfd3ec0c58c85fb11ce  -\n'],
  sha1sum: ['printf fee | sha1sum | cut -c1-8', '9c15cdad\n'],
  sha256sum: ['printf fee | sha256sum | cut -c1-8', 'b80cdaae\n'],
  // GNU file says "ASCII text, with no line terminators"; see README.md.
  file: [`file ${CARD}`, `${CARD}: Markdown document\n`],
  which: ['which grep', '/usr/bin/grep\n'],
  tac: [`tac ${WIRE} | head -n 1`, 'International wire fee: $45.\n'],
  od: ['printf A | od -An -c', '   A\n'],
  gzip: [`gzip -k ${CARD} && ls ${CARD}.gz`, `${CARD}.gz\n`],
  gunzip: [`gzip ${CARD} && gunzip ${CARD}.gz && cat ${CARD}`, CARD_TEXT],
  zcat: [`gzip -k ${CARD} && zcat ${CARD}.gz`, CARD_TEXT],
};

describe('allowed commands', () => {
  it('has one case per allowed command', () => {
    expect(Object.keys(EVERY_COMMAND).sort()).toEqual([...SHELL_COMMANDS].sort());
  });

  for (const [name, [command, expected]] of Object.entries(EVERY_COMMAND)) {
    it(`${name}: ${command}`, async () => {
      const shell = createShell(docs, { mode: 'write' });
      const result = await shell.run(command);
      expect(result.stderr).toBe('');
      expect(result.stdout).toBe(expected);
      expect(result.exitCode).toBe(0);
    });
  }

  it('runs pipelines, lists and globs over the whole knowledge base', async () => {
    const all = await knowledgeDocuments();
    const shell = createShell(all, { mode: 'read' });
    const count = await shell.run('ls | wc -l');
    expect(count.stdout.trim()).toBe('699');
    const hits = await shell.run("grep -il 'rho-bank' *.md | head -n 3; echo done");
    expect(hits.stdout.split('\n').filter(Boolean)).toHaveLength(4);
    expect(hits.stdout.endsWith('done\n')).toBe(true);
  });
});

describe('tool texts', () => {
  it('says "(no output)" for silent success and "No matches found." for a grep without hits', async () => {
    expect(await tool('true')).toBe('(no output)');
    expect(await tool('grep -r zzzz .')).toBe('No matches found.');
  });

  it('reports a failing command with its exit code and error text', async () => {
    expect(await tool('cat missing.md')).toBe('Error (exit code 1): cat: missing.md: No such file or directory\n');
    expect(await tool('false')).toBe('Command failed with exit code 1');
  });

  it('does not have commands the sandbox host lacks', async () => {
    for (const name of ['curl', 'wget', 'python3', 'node', 'sqlite3', 'tar', 'date', 'jq']) {
      expect(await tool(`${name} --version`)).toBe(`Error (exit code 127): bash: ${name}: command not found\n`);
    }
  });

  it('answers a runaway command as the 30 s timeout of the reference does', async () => {
    for (const command of ['while true; do :; done', 'f() { f; }; f']) {
      expect(await tool(command)).toBe('Error (exit code 124): Command timed out after 30 seconds');
    }
  });

  it('lays out ls operands as GNU ls does', async () => {
    const shell = createShell(docs, { mode: 'write' });
    await shell.run('mkdir d1 d2 && touch d1/x');
    expect(await shell.run('ls *.md')).toMatchObject({ stdout: `INDEX.md\n${CARD}\n${WIRE}\n`, exitCode: 0 });
    expect(await shell.run(`ls d2 ${WIRE} d1 missing.md`)).toEqual({
      stdout: `${WIRE}\n\nd1:\nx\n\nd2:\n`,
      stderr: "ls: cannot access 'missing.md': No such file or directory\n",
      exitCode: 2,
    });
    expect((await shell.run('ls -d d2 d1')).stdout).toBe('d1\nd2\n');
    expect((await shell.run('ls *.txt')).stderr).toBe("ls: cannot access '*.txt': No such file or directory\n");
  });

  it('shows ls -l with the sandbox owner and date', async () => {
    expect(await tool(`ls -l ${CARD}`)).toBe(`-rw-r--r-- 1 kb_user  kb_group  ${CARD_TEXT.length} Jan  1 00:00 ${CARD}\n`);
  });
});

describe('refusals', () => {
  for (const [command, pattern] of [
    ['cat ../secret', '..'],
    ['cat /etc/passwd', 'absolute path: /etc/passwd'],
    ['ls | /usr/bin/wc', 'absolute path: /usr/bin/wc'],
    ['cd ~', '~'],
    ['echo $HOME', '$HOME'],
    ['echo ${HOME}', '$HOME'],
  ]) {
    it(`blocks ${command}`, async () => {
      expect(await tool(command!, 'write')).toBe(
        `Error (exit code 1): Error: Command blocked - contains '${pattern}' which could escape the sandbox`,
      );
    });
  }

  it('lets quoted dots and slashes through', async () => {
    expect(await tool(`grep -c 'fee: /' ${WIRE}`)).toBe('No matches found.');
    expect(await tool(`grep -c "wire..ee" ${WIRE}`)).toBe('2\n');
  });
});

describe('read-only mode', () => {
  for (const [command, error] of [
    ['echo hi > new.md', 'bash: line 1: new.md: Read-only file system\n'],
    ['touch new.md', "touch: cannot touch 'new.md': Read-only file system\n"],
    [`rm ${CARD}`, `rm: cannot remove '${CARD}': Read-only file system\n`],
    ['mkdir notes', "mkdir: cannot create directory 'notes': Read-only file system\n"],
  ]) {
    it(`refuses ${command}`, async () => {
      const shell = createShell(docs, { mode: 'read' });
      expect(formatShellResult(command!, await shell.run(command!))).toBe(`Error (exit code 1): ${error}`);
      expect((await shell.run('ls')).stdout).toBe(`INDEX.md\n${CARD}\n${WIRE}\n`);
      expect(shell.state()).toEqual(EMPTY_SHELL_STATE);
    });
  }
});

describe('write mode', () => {
  it('keeps changes in a state that survives serialisation and restores the same tree', async () => {
    const shell = createShell(docs, { mode: 'write' });
    await shell.run('mkdir notes && echo "wire: see doc" > notes/wire.md');
    await shell.run(`sed -i 's/\\$15/$20/' ${WIRE}`);
    await shell.run(`rm ${CARD}`);
    const state = ShellStateSchema.parse(JSON.parse(JSON.stringify(shell.state())));
    expect(state).toEqual({
      written: { 'notes/wire.md': 'wire: see doc\n', [WIRE]: WIRE_TEXT.replace('$15', '$20') },
      removed: [CARD],
      directories: ['notes'],
    });

    const restored = createShell(docs, { mode: 'write', state });
    expect((await restored.run('ls -R')).stdout).toBe((await shell.run('ls -R')).stdout);
    expect((await restored.run(`grep -h Domestic ${WIRE}`)).stdout).toBe('Domestic wire fee: $20.\n');
    expect(restored.state()).toEqual(state);
  });

  it('records appends, and treats /dev/null as the reference does', async () => {
    const shell = createShell(docs, { mode: 'write' });
    const result = await shell.run('echo x > ./ok.md && echo y | tee -a ok.md');
    expect(result.stdout).toBe('y\n');
    expect(shell.state().written['ok.md']).toBe('x\ny\n');
    // `2>/dev/null` passes the reference's checks (no space before the slash); `> /dev/null` does not.
    expect(await shell.run('grep -c x ok.md missing.md 2>/dev/null')).toMatchObject({ stdout: 'ok.md:1\n', stderr: '' });
    expect((await shell.run('grep x ok.md > /dev/null')).stderr).toContain("contains 'absolute path: /dev/null'");
  });
});

describe('bounds of a hosted shell', () => {
  it('a command whose writes pass the budget fails as a full disk and keeps none of them; smaller writes go on', async () => {
    const shell = createShell(docs, { mode: 'write' });
    expect(await shell.run('echo note > notes.md')).toMatchObject({ exitCode: 0 });
    const before = shell.state();
    // Each copy doubles the file: 64 bytes grow past the budget in a few steps of one command.
    const grow = `printf '%064d' 0 > big.md; for i in $(seq 1 14); do cat big.md big.md > b2.md; mv b2.md big.md; done`;
    expect(await shell.run(grow)).toEqual(DISK_FULL);
    expect(shell.state()).toEqual(before);
    expect((await shell.run('ls')).stdout).not.toContain('big.md');
    expect(await shell.run('cat notes.md && echo more >> notes.md && cat notes.md')).toMatchObject({ exitCode: 0, stdout: 'note\nnote\nmore\n' });
    expect(JSON.stringify(shell.state()).length).toBeLessThan(WRITE_BUDGET_BYTES);
  });
});
