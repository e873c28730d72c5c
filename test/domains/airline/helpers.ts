// Airline test helpers: tool calls through the production Environment, on the real DB or on a fixture DB.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Environment } from '../../../src/core/environment/environment.ts';
import { freezeBase } from '../../../src/core/environment/db-state.ts';
import { parsePyJson } from '../../../src/core/py/index.ts';
import type { PyValue } from '../../../src/core/py/index.ts';
import type { ToolMessage } from '../../../src/core/schemas/message.ts';
import { FlightDBSchema } from '../../../domains/airline/data_model.ts';
import type { FlightDB, Reservation, User } from '../../../domains/airline/data_model.ts';
import { loaded, newEnvironment } from '../../support/domains.ts';

export const airlineEnv = (): Promise<Environment> => newEnvironment('airline');

/** An environment over a DB given inline (validated like the reference's `FlightDB(...)`). */
export const airlineEnvWith = async (db: unknown): Promise<Environment> => {
  const { domain, data } = await loaded('airline');
  const parsed = freezeBase(FlightDBSchema.parse(parsePyJson(JSON.stringify(db))));
  return new Environment(domain, { ...data, db: parsed }, { now: () => '2026-01-01T00:00:00' });
};

let ids = 0;
export const call = (env: Environment, name: string, args: Record<string, PyValue> = {}): ToolMessage =>
  env.getResponse({ id: `call_${++ids}`, name, arguments: args, requestor: 'assistant' });

export const flightDb = (env: Environment): FlightDB => env.agentDb as FlightDB;
export const reservation = (env: Environment, id: string): Reservation => flightDb(env).reservations.get(id)!;
export const user = (env: Environment, id: string): User => flightDb(env).users[id]!;

const here = path.dirname(fileURLToPath(import.meta.url));
/** A fixture file read as Python values (`2.0` stays a float). */
export const pyFixture = <T>(name: string): T =>
  parsePyJson(readFileSync(path.join(here, '../../fixtures', name), 'utf8')) as T;
