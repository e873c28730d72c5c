// banking_knowledge test access: the domain with its fetched data, environments on a fixed clock, the hashed DB.
import { fileDataSource } from '../../../src/cli/data.ts';
import type { DomainData } from '../../../src/core/environment/domain.ts';
import type { Toolkit } from '../../../src/core/environment/toolkit.ts';
import { Environment } from '../../../src/core/environment/environment.ts';
import { isoTimestamp } from '../../../src/core/orchestrator/clock.ts';
import { pyDictHash } from '../../../src/core/py/index.ts';
import type { PyInput } from '../../../src/core/py/index.ts';
import { bankingKnowledgeDomain } from '../../../domains/banking_knowledge/environment.ts';
import { transactionalPart } from '../../../domains/banking_knowledge/data_model.ts';
import type { KnowledgeDb } from '../../../domains/banking_knowledge/data_model.ts';
import { steppingClock } from '../../support/domains.ts';
import { knowledgeTools } from '../../../domains/banking_knowledge/tools.ts';

let data: Promise<DomainData> | undefined;

export const bankingData = (): Promise<DomainData> => (data ??= bankingKnowledgeDomain.load(fileDataSource()));

/** A fresh environment; `readLogAllowlist` as a task's gold actions would set it. */
export const bankingEnvironment = async (readLogAllowlist: readonly string[] = []): Promise<Environment> => {
  const clock = steppingClock();
  const agentToolkit = knowledgeTools({ readLogAllowlist: new Set(readLogAllowlist) }) as Toolkit<unknown>;
  const domain = { ...bankingKnowledgeDomain, agentToolkit };
  return new Environment(domain, await bankingData(), { now: () => isoTimestamp(clock.nowMs()) });
};

/** The reference's `get_db_hash()`: the transactional tables only. */
export const bankingDbHash = (env: Environment): string =>
  pyDictHash(transactionalPart(env.agentDb as KnowledgeDb) as unknown as PyInput);
