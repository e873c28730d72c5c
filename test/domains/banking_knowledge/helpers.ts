// banking_knowledge test access: the domain with its fetched data, environments on a fixed clock, the hashed DB.
import { fileDataSource } from '../../../src/cli/data.ts';
import type { DomainData } from '../../../src/core/environment/domain.ts';
import { Environment } from '../../../src/core/environment/environment.ts';
import { isoTimestamp } from '../../../src/core/orchestrator/clock.ts';
import { pyDictHash } from '../../../src/core/py/index.ts';
import type { PyInput } from '../../../src/core/py/index.ts';
import { bankingKnowledgeDomain } from '../../../domains/banking_knowledge/environment.ts';
import { transactionalPart } from '../../../domains/banking_knowledge/data_model.ts';
import type { KnowledgeDb } from '../../../domains/banking_knowledge/data_model.ts';
import { steppingClock } from '../../support/domains.ts';

let data: Promise<DomainData> | undefined;

export const bankingData = (): Promise<DomainData> => (data ??= bankingKnowledgeDomain.load(fileDataSource()));

export const bankingEnvironment = async (): Promise<Environment> => {
  const clock = steppingClock();
  return new Environment(bankingKnowledgeDomain, await bankingData(), { now: () => isoTimestamp(clock.nowMs()) });
};

/** The reference's `get_db_hash()`: the transactional tables only. */
export const bankingDbHash = (env: Environment): string =>
  pyDictHash(transactionalPart(env.agentDb as KnowledgeDb) as unknown as PyInput);
