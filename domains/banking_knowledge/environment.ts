// banking_knowledge domain assembly: the transactional DB, the knowledge base, the task files, the policies of
// every retrieval configuration and the toolkits (reference: src/tau2/domains/banking_knowledge/environment.py).
import { parsePyJson } from '../../src/core/py/index.ts';
import { defineDomain } from '../../src/core/environment/domain.ts';
import type { DataSource } from '../../src/core/environment/domain.ts';
import { KnowledgeDocumentSchema } from '../../src/core/knowledge/documents.ts';
import type { KnowledgeDocument } from '../../src/core/knowledge/documents.ts';
import { freezeBase } from '../../src/core/environment/db-state.ts';
import { TaskSchema } from '../../src/core/schemas/task.ts';
import { KnowledgeDbSchema, transactionalPart } from './data_model.ts';
import type { KnowledgeDb } from './data_model.ts';
import { KNOWLEDGE_FILES } from './files.ts';
import { loadPolicies } from './policy.ts';
import { knowledgeAssembly } from './assembly.ts';
import { BANKING_GOLD_ACTION_REFUSALS } from './known-issues.ts';
import { DEFAULT_RETRIEVAL_CONFIG } from '../../src/core/knowledge/configs.ts';
import { knowledgeTools } from './tools.ts';
import { knowledgeUserTools } from './user_tools.ts';

const readAll = (source: DataSource, paths: readonly string[]): Promise<string[]> =>
  Promise.all(paths.map((path) => source.readText(path)));

/**
 * The documents by id, in file-name order. The reference lists the folder unsorted (its order is the file
 * system's), so a sorted order is the reproducible one; a later file with an id already seen replaces it in place.
 */
const loadDocuments = async (source: DataSource): Promise<KnowledgeDocument[]> => {
  const byId = new Map<string, KnowledgeDocument>();
  for (const text of await readAll(source, KNOWLEDGE_FILES.documents)) {
    const doc = KnowledgeDocumentSchema.parse(JSON.parse(text));
    byId.set(doc.id, doc);
  }
  return [...byId.values()];
};

const load = async (source: DataSource) => {
  const [db, tasks, documents] = await Promise.all([
    source.readText(KNOWLEDGE_FILES.db),
    readAll(source, KNOWLEDGE_FILES.tasks),
    loadDocuments(source),
  ]);
  const policies = await loadPolicies(source, documents);
  return {
    db: freezeBase(KnowledgeDbSchema.parse(parsePyJson(db))),
    userDb: null,
    policy: policies[DEFAULT_RETRIEVAL_CONFIG]!,
    soloPolicy: null,
    tasks: tasks.map((text) => TaskSchema.parse(parsePyJson(text))),
    splits: null,
    documents,
    policies,
  };
};

export const bankingKnowledgeDomain = defineDomain<KnowledgeDb, KnowledgeDb>({
  name: 'banking_knowledge',
  agentToolkit: knowledgeTools({ readLogAllowlist: new Set() }),
  userToolkit: knowledgeUserTools,
  userToolkitSharesDb: true,
  supportsSolo: false,
  hashedDb: transactionalPart,
  parseDb: (value) => KnowledgeDbSchema.parse(value),
  parseUserDb: null,
  episodeAssembly: knowledgeAssembly,
  goldActionRefusals: BANKING_GOLD_ACTION_REFUSALS,
  load,
});
