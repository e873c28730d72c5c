// The simulated shell, BM25 and grep run inside workerd (the Episode's runtime), not only in Node.
import { describe, expect, it } from 'vitest';
import { createBm25Index } from '../../src/core/knowledge/bm25.ts';
import { createGrepIndex } from '../../src/core/knowledge/grep.ts';
import { createShell, formatShellResult } from '../../src/core/knowledge/shell.ts';

const docs = [
  { id: 'doc_wire_001', title: 'Wire Fees', content: 'Domestic wire fee: $15.\nInternational wire fee: $45.\n' },
  { id: 'doc_card_002', title: 'Card Replacement', content: 'Lost card replacement is free.' },
  { id: 'doc_fx_003', title: 'Foreign Exchange', content: 'Currency conversion at market rates.' },
];

describe('knowledge retrieval in workerd', () => {
  it('runs shell pipelines, refusals and read-only errors', async () => {
    const shell = createShell(docs, { mode: 'read' });
    const run = async (command: string) => formatShellResult(command, await shell.run(command));
    expect(await run("grep -il 'wire fee' *.md | wc -l")).toBe('2\n');
    expect(await run('cat doc_card_002.md | wc -w')).toBe('8\n');
    expect(await run('cat ../x')).toBe("Error (exit code 1): Error: Command blocked - contains '..' which could escape the sandbox");
    expect(await run('touch x.md')).toBe("Error (exit code 1): touch: cannot touch 'x.md': Read-only file system\n");
    expect(await run('python3 -V')).toBe('Error (exit code 127): bash: python3: command not found\n');
  });

  it('keeps write-mode changes in a restorable state', async () => {
    const shell = createShell(docs, { mode: 'write' });
    await shell.run('echo note > notes.md');
    const restored = createShell(docs, { mode: 'write', state: structuredClone(shell.state()) });
    expect((await restored.run('cat notes.md')).stdout).toBe('note\n');
  });

  it('ranks with BM25 and grep', () => {
    expect(createBm25Index(docs).search('lost card', 1)[0]!.id).toBe('doc_card_002');
    expect(createGrepIndex(docs).search('fee')[0]).toEqual({ id: 'doc_wire_001', score: 2 });
  });
});
