// The knowledge base as files for the shell tool, named and laid out as the reference's sandbox exports them:
// one file per document plus an INDEX, in `<sandbox>/knowledge_base/`.
import { dumpsPy } from '../py/index.ts';
import type { KnowledgeDocument } from './documents.ts';

export type KbFileFormat = 'md' | 'txt' | 'json';

/** The reference's `ShellSpec` default. */
export const DEFAULT_KB_FILE_FORMAT: KbFileFormat = 'md';

/** A document id as a file name: separators and `..` become `_`, so does anything but letters, digits and `._-`. */
export const kbFileName = (id: string): string => {
  const replaced = id.replaceAll('/', '_').replaceAll('\\', '_').replaceAll('..', '_');
  const safe = Array.from(replaced, (ch) => (/^[\p{L}\p{N}._-]$/u.test(ch) ? ch : '_'));
  return safe.slice(0, 255).join('');
};

const documentFile = (doc: KnowledgeDocument, format: KbFileFormat): string => {
  if (format === 'json') return dumpsPy({ id: doc.id, title: doc.title, content: doc.content }, { indent: 2 });
  if (format === 'md') return `# ${doc.title}\n\n${doc.content}`;
  return `Title: ${doc.title}\n${'='.repeat(50)}\n\n${doc.content}`;
};

const indexFile = (docs: readonly KnowledgeDocument[], ext: 'md' | 'txt'): string => {
  const sorted = [...docs].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  if (ext === 'md') {
    const lines = sorted.map((doc) => `- **${kbFileName(doc.id)}.${ext}** - ${doc.title}\n`);
    return `# Knowledge Base Index\n\n**Total documents:** ${docs.length}\n\n## Documents\n\n${lines.join('')}`;
  }
  const entries = sorted.map((doc) => `\n${kbFileName(doc.id)}.${ext}\n  Title: ${doc.title}\n`);
  return `KNOWLEDGE BASE INDEX\n${'='.repeat(50)}\n\nTotal documents: ${docs.length}\n\nDocuments:\n${'-'.repeat(50)}\n${entries.join('')}`;
};

/** File name → content for every document and the index (`INDEX.md`, or `INDEX.txt` for the txt format). */
export const exportKbFiles = (docs: readonly KnowledgeDocument[], format: KbFileFormat = DEFAULT_KB_FILE_FORMAT): Map<string, string> => {
  const ext = format === 'json' ? 'md' : format;
  const files = new Map<string, string>();
  for (const doc of docs) files.set(`${kbFileName(doc.id)}.${format}`, documentFile(doc, format));
  files.set(`INDEX.${ext}`, indexFile(docs, ext));
  return files;
};
