/** Bench set-up: fills a zone straight through SQLite (the figures are measured through the API). */
import path from 'node:path';
import Database from 'better-sqlite3';

/** Adds `count` A records (`host0`, `host1`, …) to `zone` in the SQLite store in `dataDir`; the server must be stopped. */
export function fillZone(dataDir: string, zone: string, count: number): void {
  const db = new Database(path.join(dataDir, 'zonedeck.db'));
  const { id } = db.prepare('select id from domains where name = ?').get(zone) as { id: number };
  const insert = db.prepare("insert into records (domain_id, name, record_type, content, ttl, created_at, updated_at) values (?, ?, 'A', ?, 3600, ?, ?)");
  const at = new Date().toISOString();
  db.transaction(() => {
    for (let i = 0; i < count; i++) insert.run(id, `host${i}`, `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, at, at);
  })();
  db.close();
}
