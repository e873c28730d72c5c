// grep's `\N{name}` in the CLI's own process: Node cannot import the name table's files as text, so the CLI
// reads them from the installed package, and they give the lookup the Worker's bundle gives.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { UNICODE_NAME_FILES } from '../../src/core/knowledge/unicode-name-files.ts';
import { loadCharacterNameLookup } from '../../src/core/knowledge/unicode-name-table.ts';
import { readUnicodeNameFiles } from '../../src/cli/unicode-name-files.ts';

const root = path.resolve(import.meta.dirname, '../..');

describe('the Unicode name table in Node', () => {
  it('reads the files the bundle holds, byte for byte', async () => {
    expect(await readUnicodeNameFiles()).toEqual(UNICODE_NAME_FILES);
    const lookup = await loadCharacterNameLookup(await readUnicodeNameFiles());
    expect(lookup('latin small letter a')).toBe(0x61);
    expect(lookup('HANGUL SYLLABLE GAG')).toBe(0xac01);
  });

  it('resolves \\N{name} in a plain Node process once the CLI supplies the files (without them, Node refuses the import)', async () => {
    const script = (wired: boolean) => `
      import { loadCharacterNames, useCharacterNameFiles } from ${JSON.stringify(path.join(root, 'src/core/knowledge/py-regex.ts'))};
      import { readUnicodeNameFiles } from ${JSON.stringify(path.join(root, 'src/cli/unicode-name-files.ts'))};
      ${wired ? 'useCharacterNameFiles(readUnicodeNameFiles);' : ''}
      const lookup = await loadCharacterNames('\\\\N{LATIN SMALL LETTER A}');
      console.log(lookup('LATIN SMALL LETTER A'));`;
    const node = (wired: boolean) => promisify(execFile)(process.execPath, ['--input-type=module', '-e', script(wired)], { cwd: root });
    expect((await node(true)).stdout.trim()).toBe('97');
    await expect(node(false)).rejects.toThrow(/ERR_IMPORT_ATTRIBUTE_UNSUPPORTED/);
  });
});
