/**
 * kysely prepares every query anew; SQLite's prepare costs more than running a simple
 * query. Queries are parameterized, so their SQL text repeats: keep the statements.
 */
import type Database from 'better-sqlite3';

export function withStatementCache(raw: Database.Database, max = 500) {
  const cache = new Map<string, Database.Statement>();
  return {
    close: () => raw.close(),
    prepare(sqlText: string) {
      let st = cache.get(sqlText);
      if (!st) {
        st = raw.prepare(sqlText);
        if (cache.size >= max) cache.delete(cache.keys().next().value!);
        cache.set(sqlText, st);
      }
      return st;
    },
  };
}

export type Statements = ReturnType<typeof withStatementCache>;
