// Writing a results file as the reference does: pydantic's model_dump_json(indent=2) writes non-ASCII text as
// raw UTF-8 (no \uXXXX escapes); numbers keep their Python kinds through dumpsPy.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { dumpsPy } from '../core/py/index.ts';
import type { PyValue } from '../core/py/index.ts';
import type { Results } from '../core/schemas/simulation.ts';

export const resultsText = (results: Results): string => dumpsPy(results as unknown as PyValue, { indent: 2, ensureAscii: false });

export const saveResults = async (file: string, results: Results): Promise<void> => {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, resultsText(results));
};
