// The registry of domains by name (reference: src/tau2/registry.py).
import type { AnyDomain } from '../src/core/environment/domain.ts';
import { airlineDomain } from './airline/index.ts';
import { bankingKnowledgeDomain } from './banking_knowledge/environment.ts';
import { mockDomain } from './mock/index.ts';
import { retailDomain } from './retail/index.ts';
import { telecomDomain, telecomWorkflowDomain } from './telecom/index.ts';

export const domains: Readonly<Record<string, AnyDomain>> = {
  mock: mockDomain,
  airline: airlineDomain,
  retail: retailDomain,
  telecom: telecomDomain,
  'telecom-workflow': telecomWorkflowDomain,
  banking_knowledge: bankingKnowledgeDomain,
};

export const getDomain = (name: string): AnyDomain => {
  const domain = Object.hasOwn(domains, name) ? domains[name] : undefined;
  if (!domain) throw new Error(`Unknown domain: ${name}. Available: ${Object.keys(domains).join(', ')}`);
  return domain;
};
