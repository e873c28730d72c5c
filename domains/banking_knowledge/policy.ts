// The agent policy of each retrieval configuration, assembled from the prompt templates and their components
// (reference: load_prompt_template, format_full_knowledge_base, the prompt builders and build_policy in
// retrieval.py). Plain text substitution is byte-exact here: no document holds a backslash, which Python's
// `re.sub` would otherwise interpret in the inlined knowledge base.
import type { DataSource } from '../../src/core/environment/domain.ts';
import type { KnowledgeDocument } from '../../src/core/knowledge/documents.ts';
import type { Task } from '../../src/core/schemas/task.ts';
import { KNOWLEDGE_FILES } from './files.ts';
import { RETRIEVAL_VARIANTS } from './retrieval.ts';
import type { DenseEmbedder, RetrievalVariant } from './retrieval.ts';

const COMPONENT = /\{\{component:(\w+)\}\}/g;

/** The policy of a `golden_retrieval` run before the task's documents are put in. */
export const GOLDEN_RETRIEVAL = 'golden_retrieval';

/** What `get_info_policy_override` records for a golden_retrieval run, whose policy differs per task. */
export const TASK_SPECIFIC_POLICY = "(Policy is task-specific - see 'policy' field in each simulation)";

/** A template with every `{{component:NAME}}` replaced by `components/NAME.md` (read as is). */
const renderTemplate = async (source: DataSource, template: string): Promise<string> => {
  const text = await source.readText(KNOWLEDGE_FILES.prompt(template));
  const names = [...new Set([...text.matchAll(COMPONENT)].map((m) => m[1]!))];
  const components = new Map(
    await Promise.all(names.map(async (name) => [name, await source.readText(KNOWLEDGE_FILES.component(name))] as const)),
  );
  return text.replace(COMPONENT, (_, name: string) => components.get(name)!);
};

const asSection = (doc: KnowledgeDocument): string => `## ${doc.title}\n\n${doc.content}`;

/** `format_full_knowledge_base`: every document as a Markdown section, separated by rules. */
const fullKnowledgeBase = (documents: readonly KnowledgeDocument[]): string => documents.map(asSection).join('\n\n---\n\n');

/** `format_all_tools_dense_instructions`: which dense retriever the all-tools prompt names. */
const denseInstructions = ({ provider, model }: DenseEmbedder): string =>
  `The \`KB_search_dense\` tool uses **${provider}** with embedding model \`${model}\` for dense retrieval.`;

/** Every configuration's policy; golden_retrieval's still holds `{{required_documents}}`. */
export const loadPolicies = async (
  source: DataSource,
  documents: readonly KnowledgeDocument[],
): Promise<Record<string, string>> => {
  const templates = new Map<string, string>();
  for (const v of RETRIEVAL_VARIANTS) {
    if (!templates.has(v.template)) templates.set(v.template, await renderTemplate(source, v.template));
  }
  const policyOf = (v: RetrievalVariant): string => {
    const text = templates.get(v.template)!;
    if (v.prompt === 'full_kb') return text.replaceAll('{{full_knowledge_base}}', () => fullKnowledgeBase(documents));
    if (v.dense) return text.replaceAll('{{all_tools_dense_instructions}}', denseInstructions(v.dense));
    return text;
  };
  return Object.fromEntries(RETRIEVAL_VARIANTS.map((v) => [v.name, policyOf(v)]));
};

/**
 * `golden_prompt`: the task's required documents inlined, each found by title (the last document of that title)
 * or else by id; documents not found are left out.
 */
export const goldenPolicy = (template: string, documents: readonly KnowledgeDocument[], task: Task): string => {
  const byTitle = new Map(documents.map((d) => [d.title, d]));
  const byId = new Map(documents.map((d) => [d.id, d]));
  const found = (task.required_documents ?? [])
    .map((ref) => byTitle.get(ref) ?? byId.get(ref))
    .filter((d): d is KnowledgeDocument => d !== undefined);
  const text = found.length > 0 ? found.map(asSection).join('\n\n---\n\n') : '(No documents provided)';
  return template.replaceAll('{{required_documents}}', () => text);
};
