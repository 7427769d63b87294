/**
 * TXT keeps its character-strings: content in the quoted form
 * `"a" "b"` is exactly those strings. Before, every TXT content was plain text, so a row whose
 * text happened to read as the quoted form (a value with its own quotes, `"v=DMARC1; p=reject"`)
 * meant those quote characters. Such rows, in the zone and in its history, are rewritten to the
 * canonical form of the octets they stood for, so every row still means the same data on the
 * wire. Other rows read the same under both rules and are left alone.
 */
import { sql, type Kysely } from 'kysely';
import { splitStrings, txtContent } from '../../core/rdata/txt';
import { tokenOctets } from '../../core/rdata/presentation';
import type { Dialect } from '../migrate';

const BATCH = 1000;

/** The canonical content, under the new rule, of TXT content as the old rule read it (plain text); null when unchanged. */
export function rewriteOldTxt(content: string): string | null {
  if (!content.trim().startsWith('"')) return null;
  let octets: Uint8Array;
  try {
    octets = tokenOctets(content, true);
  } catch {
    return null;
  }
  const now = txtContent(splitStrings(octets));
  return now === content ? null : now;
}

async function rewrite(db: Kysely<unknown>, table: 'records' | 'change_set_records'): Promise<void> {
  let after = 0;
  for (;;) {
    const { rows } = await sql<{ id: number; content: string }>`select id, content from ${sql.table(table)}
      where record_type = 'TXT' and id > ${after} order by id limit ${BATCH}`.execute(db);
    if (rows.length === 0) return;
    for (const r of rows) {
      const next = rewriteOldTxt(r.content);
      if (next !== null) await sql`update ${sql.table(table)} set content = ${next} where id = ${r.id}`.execute(db);
    }
    after = Number(rows.at(-1)!.id);
  }
}

export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await rewrite(db, 'records');
  await rewrite(db, 'change_set_records');
}
