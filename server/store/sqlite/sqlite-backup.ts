/**
 * The SQLite database as a file, for `backup` and `restore` (server/cli): a consistent copy taken
 * while the server writes, the checks a file passes before it becomes a data directory's database,
 * and the test that no process holds one; `sqliteFiles` is all of it as the CLI is handed it.
 */
import fs from 'node:fs';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { Database as Schema } from '../schema';
import { MIGRATIONS, SchemaTooNewError } from '../migrate';
import { KEY_FILE, keyFromBase64, restrictDataDir, SecretBox, SecretsKeyError, sealedKeyId, sealStoredSecrets } from '../secret-box';
import type { DatabaseFiles, DatabaseSummary } from '../types/database-files';

/** The file is not a database this code can take, or it is in use: the message says which and why. */
export class DatabaseFileError extends Error {}

/**
 * Copies the database at `source` to `dest` (a new, empty file the caller made 0600) with SQLite's
 * online backup API, while other processes write it. All pages go in one step, that is one read
 * transaction: a snapshot of one moment, which concurrent commits neither tear nor restart (in WAL
 * mode they go on meanwhile). The copy is left in rollback-journal mode, one self-contained file.
 */
export async function backupSqlite(source: string, dest: string): Promise<void> {
  const db = new Database(source, { fileMustExist: true, timeout: 5000 });
  try {
    // better-sqlite3 copies 100 pages a step unless told: the largest step it takes is all of them.
    await db.backup(dest, { progress: () => 0x7fffffff });
  } finally {
    db.close();
  }
  const copy = new Database(dest, { fileMustExist: true });
  try {
    copy.pragma('journal_mode = DELETE');
  } finally {
    copy.close();
  }
}

/**
 * What restore checks before a file becomes the database: SQLite's integrity check passes, and it
 * is a zonedeck database (it has the migrations table, with the first migration in it).
 */
export function inspectDatabase(file: string): DatabaseSummary {
  let db: Database.Database;
  try {
    db = new Database(file, { fileMustExist: true });
  } catch (e) {
    throw new DatabaseFileError(`${file} cannot be opened: ${(e as Error).message}`);
  }
  try {
    let report: string[];
    try {
      report = (db.pragma('integrity_check') as { integrity_check: string }[]).map((r) => r.integrity_check);
    } catch (e) {
      throw new DatabaseFileError(`${file} is not an SQLite database (${(e as Error).message})`);
    }
    if (report.join() !== 'ok') throw new DatabaseFileError(`${file} is damaged: SQLite's integrity check says ${report.slice(0, 3).join('; ')}`);
    const hasTable = (name: string) => db.prepare(`select 1 from sqlite_master where type = 'table' and name = ?`).get(name) !== undefined;
    const migrations = hasTable('kysely_migration') ? (db.prepare('select name from kysely_migration order by name').pluck().all() as string[]) : [];
    if (!migrations.includes('0001-initial') || !hasTable('domains')) throw new DatabaseFileError(`${file} is an SQLite database, but not a zonedeck one: it has no zonedeck migrations`);
    const sealed = db
      .prepare(`select secret from tsig_keys union all select private_key from dnssec_keys`)
      .pluck()
      .all()
      .map((v) => sealedKeyId(String(v)));
    return {
      migrations,
      zones: db.prepare('select count(*) from domains').pluck().get() as number,
      records: db.prepare('select count(*) from records').pluck().get() as number,
      sealedUnder: [...new Set(sealed.filter((id): id is string => id !== null))],
    };
  } finally {
    db.close();
  }
}

/**
 * Opens every sealed secret of the file with `box`, as the server does at start (and seals the ones
 * stored in clear by an old version, as it would): a key that does not open them throws
 * SecretsKeyError before the file is put in place.
 */
export async function checkSecrets(file: string, box: SecretBox): Promise<void> {
  const db = new Kysely<Schema>({ dialect: new SqliteDialect({ database: new Database(file, { fileMustExist: true }) }) });
  try {
    await sealStoredSecrets(db, box);
  } finally {
    await db.destroy();
  }
}

/**
 * Makes sure no process has the database open and leaves it one self-contained file, ready to be
 * moved: every open connection of a server (or CLI) holds a shared lock on a WAL database, so
 * leaving WAL mode, which needs the only connection, fails at once with SQLITE_BUSY while one
 * runs. After a crash it recovers the WAL into the file first.
 */
export function takeStoppedDatabase(file: string): void {
  const db = new Database(file, { fileMustExist: true, timeout: 0 });
  try {
    db.pragma('journal_mode = DELETE');
  } catch (e) {
    if ((e as { code?: string }).code === 'SQLITE_BUSY') {
      throw new DatabaseFileError(`${file} is open in another process: a zonedeck server (or CLI) is using it; stop it first`);
    }
    if ((e as { code?: string }).code !== 'SQLITE_NOTADB') throw e;
  } finally {
    db.close();
  }
}

/** Makes a rename in `dir` durable. */
export function syncDir(dir: string): void {
  const fd = fs.openSync(dir, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** The database's companion files SQLite may leave beside it. */
export const companions = (file: string) => ['-wal', '-shm', '-journal'].map((s) => `${file}${s}`).filter((f) => fs.existsSync(f));

/** The database as files (store/types/database-files.ts), as the CLI's composition root hands it to backup and restore. */
export const sqliteFiles: DatabaseFiles = {
  keyFile: KEY_FILE,
  migrations: MIGRATIONS,
  readKey: keyFromBase64,
  box: (key) => new SecretBox(key),
  copy: backupSqlite,
  inspect: inspectDatabase,
  requireKnownSchema(migrations) {
    const unknown = migrations.filter((m) => !MIGRATIONS.includes(m));
    if (unknown.length > 0) throw new SchemaTooNewError(unknown);
  },
  async secretsRefusal(file, box) {
    try {
      await checkSecrets(file, box);
      return null;
    } catch (e) {
      if (e instanceof SecretsKeyError) return e.message;
      throw e;
    }
  },
  takeStopped: takeStoppedDatabase,
  companions,
  restrictDataDir,
  syncDir,
};
