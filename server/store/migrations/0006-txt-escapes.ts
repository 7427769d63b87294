/**
 * TXT content gains escapes: in `content`, `\DDD` is an octet and `\X` the
 * character X (RFC 1035 §5.1), and the canonical form writes a backslash as `\\` and control
 * characters as `\DDD`. Rows stored before held the raw text: their backslashes and control
 * characters are escaped now, so every row still stands for the same octets on the wire.
 * Escaping is one-to-one, so no two rows of an RRset become equal.
 */
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../migrate';

const BATCH = 1000;

/** Raw TXT text (the content before this migration) in the escaped form. */
export function escapeRawTxt(text: string): string {
  return text.replace(/[\\\x00-\x1f\x7f]/g, (c) => (c === '\\' ? '\\\\' : `\\${String(c.charCodeAt(0)).padStart(3, '0')}`));
}

export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  let after = 0;
  for (;;) {
    const { rows } = await sql<{ id: number; content: string }>`select id, content from records
      where record_type = 'TXT' and id > ${after} order by id limit ${BATCH}`.execute(db);
    if (rows.length === 0) return;
    for (const r of rows) {
      const escaped = escapeRawTxt(r.content);
      if (escaped !== r.content) await sql`update records set content = ${escaped} where id = ${r.id}`.execute(db);
    }
    after = Number(rows.at(-1)!.id);
  }
}
