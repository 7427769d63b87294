/** What every list query of the repos shares: LIKE patterns, counts, and the total behind a page. */
import { sql } from 'kysely';
import type { Window } from '../types';

export const escapeLike = (s: string) => s.replace(/[\\%_]/g, (m) => `\\${m}`);
/** LIKE with a backslash escape, spelled the same for SQLite and PostgreSQL. */
export const like = (column: string, pattern: string) => sql<boolean>`${sql.ref(column)} like ${pattern} escape '\\'`;

export async function count(q: Promise<{ n: number | string | bigint } | undefined>): Promise<number> {
  return Number((await q)?.n ?? 0);
}

/** The total behind a page: known without a count when the page is a partial one. */
export function pageTotal(got: number, w: Window, countAll: () => Promise<number>): Promise<number> {
  if (got > 0 && got < w.limit) return Promise.resolve(w.offset + got);
  if (got === 0 && w.offset === 0) return Promise.resolve(0);
  return countAll();
}
