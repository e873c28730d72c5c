// The Unicode name table's data files (grep's `\N{name}`), read from the installed package: Node cannot import a
// file as text, as the Worker's bundle does.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { UNICODE_NAME_MODULES } from '../core/knowledge/unicode-name-table.ts';

export const readUnicodeNameFiles = (): Promise<readonly string[]> =>
  Promise.all(UNICODE_NAME_MODULES.map((specifier) => readFile(fileURLToPath(import.meta.resolve(specifier)), 'utf8')));
