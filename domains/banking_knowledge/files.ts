// Where the banking_knowledge data lives under the data root. Task and document files are many and are listed
// by the project's data manifest (the data sources read files but cannot list folders).
import tau2Data from '../../scripts/tau2-data.json' with { type: 'json' };

const DIR = 'domains/banking_knowledge';

const listed = (prefix: string): string[] =>
  tau2Data.files.map((file) => file.path).filter((path) => path.startsWith(prefix) && path.endsWith('.json'));

export const KNOWLEDGE_FILES = {
  db: `${DIR}/db.json`,
  /** `sorted(tasks_dir.glob("task_*.json"))`: by code point, as Python sorts paths. */
  tasks: listed(`${DIR}/tasks/task_`).sort(),
  /** Sorted by file name (see loadDocuments). */
  documents: listed(`${DIR}/documents/`).sort(),
  prompt: (name: string): string => `${DIR}/prompts/${name}.md`,
  component: (name: string): string => `${DIR}/prompts/components/${name}.md`,
} as const;
