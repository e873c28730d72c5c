// The agent card of tau2-edge as an A2A agent: an assessor whose skills are the benchmark's domains. A message
// to its JSON-RPC endpoint with an evaluation request (a data part) starts a run; see docs/a2a.md.
import { A2A_PROTOCOL_VERSION, A2A_RPC_PATH } from '../../api/a2a.ts';
import { domains } from '../../../domains/registry.ts';

const EXAMPLE = (domain: string): string =>
  JSON.stringify({ domain, num_tasks: 5, num_trials: 1, agent: 'llm_agent', llm_agent: 'gpt-4.1-mini', llm_user: 'gpt-4.1-mini' });

const skill = (domain: string) => ({
  id: domain,
  name: `τ²-bench ${domain}`,
  description:
    `Evaluates a conversational agent on the τ²-bench ${domain} domain against a simulated user, and grades it as the reference ` +
    'does. Send a data part with the run configuration (domain, tasks, trials, the agent); the task follows the run and its ' +
    'artifacts are the results file and the summary metrics.',
  tags: ['evaluation', 'benchmark', 'tau2-bench', domain],
  examples: [EXAMPLE(domain)],
  inputModes: ['application/json'],
  outputModes: ['application/json'],
});

/** The card served at /.well-known/agent-card.json, its endpoint on the origin the caller reached. */
export const agentCard = (origin: string) => ({
  name: 'tau2-edge',
  description:
    'The τ²-bench benchmark for conversational agents: runs an agent against simulated users in dual-control domains and ' +
    'grades the episodes with the reference evaluator.',
  // The HTTP API's version, as the OpenAPI document gives it.
  version: '1',
  supportedInterfaces: [{ url: `${origin}${A2A_RPC_PATH}`, protocolBinding: 'JSONRPC', protocolVersion: A2A_PROTOCOL_VERSION }],
  provider: { organization: 'tau2-edge', url: origin },
  documentationUrl: `${origin}/docs`,
  capabilities: { streaming: false, pushNotifications: false, extendedAgentCard: false },
  securitySchemes: { api_key: { httpAuthSecurityScheme: { scheme: 'bearer', description: 'A tau2-edge API key (Authorization: Bearer <key>)' } } },
  securityRequirements: [{ schemes: { api_key: { list: [] } } }],
  defaultInputModes: ['application/json', 'text/plain'],
  defaultOutputModes: ['application/json'],
  skills: Object.keys(domains).map(skill),
});
