// The agent policy of each retrieval configuration, assembled from the prompt templates and their components
// (reference: load_prompt_template / load_component and the prompt builders in retrieval.py).
import type { DataSource } from '../../src/core/environment/domain.ts';
import { KNOWLEDGE_FILES } from './files.ts';

const COMPONENT = /\{\{component:(\w+)\}\}/g;

/** A template with every `{{component:NAME}}` replaced by `components/NAME.md` (read as is). */
export const renderTemplate = async (source: DataSource, template: string): Promise<string> => {
  const text = await source.readText(KNOWLEDGE_FILES.prompt(template));
  const names = [...new Set([...text.matchAll(COMPONENT)].map((m) => m[1]!))];
  const components = new Map(
    await Promise.all(names.map(async (name) => [name, await source.readText(KNOWLEDGE_FILES.component(name))] as const)),
  );
  return text.replace(COMPONENT, (_, name: string) => components.get(name)!);
};
