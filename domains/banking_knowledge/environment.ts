// banking_knowledge domain assembly: the transactional DB, the task files and the toolkits (reference:
// src/tau2/domains/banking_knowledge/environment.py).
import { parsePyJson } from '../../src/core/py/index.ts';
import { defineDomain } from '../../src/core/environment/domain.ts';
import type { DataSource } from '../../src/core/environment/domain.ts';
import { freezeBase } from '../../src/core/environment/db-state.ts';
import { TaskSchema } from '../../src/core/schemas/task.ts';
import { KnowledgeDbSchema, transactionalPart } from './data_model.ts';
import type { KnowledgeDb } from './data_model.ts';
import { KNOWLEDGE_FILES } from './files.ts';
import { renderTemplate } from './policy.ts';
import { knowledgeTools } from './tools.ts';

const load = async (source: DataSource) => {
  const [db, policy, ...tasks] = await Promise.all([
    source.readText(KNOWLEDGE_FILES.db),
    renderTemplate(source, 'no_knowledge'),
    ...KNOWLEDGE_FILES.tasks.map((path) => source.readText(path)),
  ]);
  return {
    db: freezeBase(KnowledgeDbSchema.parse(parsePyJson(db!))),
    userDb: null,
    policy: policy!,
    soloPolicy: null,
    tasks: tasks.map((text) => TaskSchema.parse(parsePyJson(text))),
    splits: null,
  };
};

export const bankingKnowledgeDomain = defineDomain<KnowledgeDb, null>({
  name: 'banking_knowledge',
  agentToolkit: knowledgeTools({ readLogAllowlist: new Set() }),
  userToolkit: null,
  supportsSolo: false,
  hashedDb: transactionalPart,
  parseDb: (value) => KnowledgeDbSchema.parse(value),
  parseUserDb: null,
  load,
});
