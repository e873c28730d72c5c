// The Worker's document-embedding store, in D1.
import { drizzle } from 'drizzle-orm/d1';
import { inArray } from 'drizzle-orm';
import { bytesToVector, vectorToBytes } from '../../core/knowledge/embedding-store.ts';
import type { EmbeddingStore } from '../../core/knowledge/embedding-store.ts';
import { base64url, fromBase64url } from '../crypto.ts';
import { chunks } from './chunks.ts';
import { documentEmbeddings } from './schema.ts';

// Rows per statement: 3 bound values each for inserts, one key each for lookups.
const INSERT_ROWS = 30;
const LOOKUP_KEYS = 90;

export const d1EmbeddingStore = (d1: D1Database, now: () => string = () => new Date().toISOString()): EmbeddingStore => ({
  async getMany(keys) {
    const found = new Map<string, Float64Array>();
    for (const part of chunks(keys, LOOKUP_KEYS)) {
      const rows = await drizzle(d1).select().from(documentEmbeddings).where(inArray(documentEmbeddings.key, part));
      for (const row of rows) found.set(row.key, bytesToVector(fromBase64url(row.vector)));
    }
    return keys.map((key) => found.get(key));
  },
  async putMany(entries) {
    const db = drizzle(d1);
    const createdAt = now();
    const statements = chunks(entries, INSERT_ROWS).map((part) =>
      db
        .insert(documentEmbeddings)
        .values(part.map(({ key, vector }) => ({ key, vector: base64url(vectorToBytes(vector)), createdAt })))
        .onConflictDoNothing(),
    );
    const [first, ...rest] = statements;
    if (first) await db.batch([first, ...rest]);
  },
});
