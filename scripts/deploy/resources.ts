// The account's resources the Worker binds: its D1 database and its queue, each found by name or created once.
import { z } from 'zod';
import type { Wrangler } from './wrangler.ts';
import { required } from './wrangler.ts';

const DatabaseListSchema = z.array(z.object({ uuid: z.string(), name: z.string() }));

export type Found<T> = { readonly state: 'found' | 'created'; readonly value: T } | { readonly state: 'missing' };

/** The id of the database named `name`, or null when the account has none. */
const databaseId = async (wrangler: Wrangler, name: string): Promise<string | null> => {
  const list = DatabaseListSchema.parse(JSON.parse(await required(wrangler, ['d1', 'list', '--json'])));
  return list.find((d) => d.name === name)?.uuid ?? null;
};

/** Finds the D1 database, or creates it unless `create` is false. */
export const ensureDatabase = async (wrangler: Wrangler, name: string, create: boolean): Promise<Found<string>> => {
  const existing = await databaseId(wrangler, name);
  if (existing !== null) return { state: 'found', value: existing };
  if (!create) return { state: 'missing' };
  await required(wrangler, ['d1', 'create', name]);
  const created = await databaseId(wrangler, name);
  if (created === null) throw new Error(`D1 database ${name} was created but is not listed`);
  return { state: 'created', value: created };
};

/** Finds the queue, or creates it unless `create` is false. */
export const ensureQueue = async (wrangler: Wrangler, name: string, create: boolean): Promise<Found<string>> => {
  const info = await wrangler(['queues', 'info', name]);
  if (info.ok) return { state: 'found', value: name };
  if (!/does not exist/.test(info.stderr + info.stdout)) throw new Error(`wrangler queues info ${name} failed:\n${info.stderr || info.stdout}`);
  if (!create) return { state: 'missing' };
  await required(wrangler, ['queues', 'create', name]);
  return { state: 'created', value: name };
};
