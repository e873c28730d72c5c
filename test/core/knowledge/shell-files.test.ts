// The shell sandbox's file layout, refusals and listing clean-up against the reference's own SandboxManager
// methods (test/fixtures/knowledge-shell.json).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportKbFiles, kbFileName } from '../../../src/core/knowledge/kb-files.ts';
import type { KbFileFormat } from '../../../src/core/knowledge/kb-files.ts';
import { escapePattern, sanitizeListing } from '../../../src/core/knowledge/shell-guard.ts';
import { sha256Hex } from '../../../src/core/py/index.ts';
import { knowledgeDocuments } from '../../support/knowledge.ts';

interface ShellFixture {
  escapes: { command: string; pattern: string | null }[];
  sanitized: { output: string; sanitized: string }[];
  exports: Record<KbFileFormat, { count: number; listing_sha256: string; index: string; index_sha256: string; first_files: string[] }>;
  file_names: Record<string, string>;
}
const fixture = JSON.parse(
  await readFile(path.join(import.meta.dirname, '../../fixtures/knowledge-shell.json'), 'utf8'),
) as ShellFixture;
const docs = await knowledgeDocuments();

describe('sandbox refusals', () => {
  for (const { command, pattern } of fixture.escapes) {
    it(`${JSON.stringify(command)} → ${pattern ?? 'allowed'}`, () => {
      expect(escapePattern(command)).toBe(pattern);
    });
  }
});

describe('ls listing clean-up', () => {
  for (const { output, sanitized } of fixture.sanitized) {
    it(`rewrites ${JSON.stringify(output.slice(0, 30))}…`, () => {
      expect(sanitizeListing(output)).toBe(sanitized);
    });
  }
});

describe('knowledge-base files', () => {
  for (const [id, name] of Object.entries(fixture.file_names)) {
    it(`names ${JSON.stringify(id.slice(0, 30))} as the reference does`, () => {
      expect(kbFileName(id)).toBe(name);
    });
  }

  for (const format of ['md', 'txt', 'json'] as const) {
    it(`exports the 698 documents as ${format} files byte for byte`, () => {
      const expected = fixture.exports[format];
      const files = exportKbFiles(docs, format);
      const names = [...files.keys()].sort();
      expect(names).toHaveLength(expected.count);
      expect(names.slice(0, 3)).toEqual(expected.first_files);
      expect(sha256Hex(files.get(expected.index)!)).toBe(expected.index_sha256);
      const listing = names.map((name) => `${name} ${sha256Hex(files.get(name)!)}`).join('\n');
      expect(sha256Hex(listing)).toBe(expected.listing_sha256);
    });
  }
});
