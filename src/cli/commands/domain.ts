// `tau2-edge domain D`: a domain's policy and the documentation of its tools (agent's, then the user's).
import { toolSchemas } from '../../core/environment/toolkit.ts';
import type { Toolkit } from '../../core/environment/toolkit.ts';
import { defineCommand } from '../cli-command.ts';
import type { CliContext } from '../cli-command.ts';
import { loadDomain } from '../data.ts';
import { domains } from '../../../domains/registry.ts';

const toolDocs = (toolkit: Toolkit<unknown>): string[] =>
  toolSchemas(toolkit).map(({ function: f }) => {
    const required = new Set(f.parameters.required ?? []);
    const params = Object.keys(f.parameters.properties).map((name) => (required.has(name) ? name : `${name}?`));
    return `- ${f.name}(${params.join(', ')})\n  ${f.description.trim().replace(/\n\s*/g, '\n  ')}`;
  });

export const domainCommand = (ctx: CliContext) =>
  defineCommand(
    ctx,
    'domain',
    "print a domain's policy and its tools' documentation",
    ['domain airline', 'domain telecom | less'],
    (command) => command.argument('<domain>', `one of: ${Object.keys(domains).join(', ')}`),
    async (name: string) => {
      const { domain, data } = await loadDomain(name);
      ctx.out(`# ${domain.name}: policy\n\n${data.policy.trim()}\n`);
      ctx.out(`# ${domain.name}: agent tools\n\n${toolDocs(domain.agentToolkit).join('\n')}`);
      if (domain.userToolkit) ctx.out(`\n# ${domain.name}: user tools\n\n${toolDocs(domain.userToolkit).join('\n')}`);
      return 0;
    },
  );
