/**
 * Versioned migrations kept in the repository, applied in order at start (and by the
 * CLI). Each one is written once for both databases. Forward only (no `down`): to go back,
 * restore a backup. All the pending ones run in one transaction, so a failed upgrade leaves
 * the database as it was; a database that ran a migration this code does not know (written
 * by a newer zonedeck) is refused before anything is touched.
 */
import { Migrator, sql, type Kysely, type Migration } from 'kysely';
import * as m0001 from './migrations/0001-initial';
import * as m0002 from './migrations/0002-sessions';
import * as m0003 from './migrations/0003-dnssec-keys';
import * as m0004 from './migrations/0004-record-count';
import * as m0005 from './migrations/0005-change-sets';
import * as m0006 from './migrations/0006-txt-escapes';
import * as m0007 from './migrations/0007-tsig-keys';
import * as m0008 from './migrations/0008-many-nodes';
import * as m0009 from './migrations/0009-dnssec-disabled-at';
import * as m0010 from './migrations/0010-txt-strings';
import * as m0011 from './migrations/0011-zone-attributes';
import * as m0012 from './migrations/0012-rrset-comments';
import * as m0013 from './migrations/0013-disabled-records';
import * as m0014 from './migrations/0014-teams-and-audit';
import * as m0015 from './migrations/0015-templates';
import * as m0016 from './migrations/0016-query-stats';
import * as m0017 from './migrations/0017-second-factors';
import * as m0018 from './migrations/0018-oidc';
import * as m0019 from './migrations/0019-deleted-zones';
import * as m0020 from './migrations/0020-record-search-index';
import * as m0021 from './migrations/0021-zone-content-tags';
import * as m0022 from './migrations/0022-team-invitations';
import * as m0023 from './migrations/0023-identity-sso';
import * as m0024 from './migrations/0024-secondary-zones';
import * as m0025 from './migrations/0025-zone-transfer-settings';
import * as m0026 from './migrations/0026-dnssec-beside-cname';
import * as m0027 from './migrations/0027-catalog-consumers';
import * as m0028 from './migrations/0028-dnssec-policy';
import * as m0029 from './migrations/0029-pools';
import * as m0030 from './migrations/0030-webhooks';
import * as m0031 from './migrations/0031-totp-used-steps';
import * as m0032 from './migrations/0032-record-count-per-statement';
import * as m0033 from './migrations/0033-delegation-checked';
import * as m0034 from './migrations/0034-session-devices';
import * as m0035 from './migrations/0035-password-change-required';

export type Dialect = 'sqlite' | 'postgres';

export type Step = { up(db: Kysely<unknown>, dialect: Dialect): Promise<void> };

const STEPS: Record<string, Step> = {
  '0001-initial': m0001,
  '0002-sessions': m0002,
  '0003-dnssec-keys': m0003,
  '0004-record-count': m0004,
  '0005-change-sets': m0005,
  '0006-txt-escapes': m0006,
  '0007-tsig-keys': m0007,
  '0008-many-nodes': m0008,
  '0009-dnssec-disabled-at': m0009,
  '0010-txt-strings': m0010,
  '0011-zone-attributes': m0011,
  '0012-rrset-comments': m0012,
  '0013-disabled-records': m0013,
  '0014-teams-and-audit': m0014,
  '0015-templates': m0015,
  '0016-query-stats': m0016,
  '0017-second-factors': m0017,
  '0018-oidc': m0018,
  '0019-deleted-zones': m0019,
  '0020-record-search-index': m0020,
  '0021-zone-content-tags': m0021,
  '0022-team-invitations': m0022,
  '0023-identity-sso': m0023,
  '0024-secondary-zones': m0024,
  '0025-zone-transfer-settings': m0025,
  '0026-dnssec-beside-cname': m0026,
  '0027-catalog-consumers': m0027,
  '0028-dnssec-policy': m0028,
  '0029-pools': m0029,
  '0030-webhooks': m0030,
  '0031-totp-used-steps': m0031,
  '0032-record-count-per-statement': m0032,
  '0033-delegation-checked': m0033,
  '0034-session-devices': m0034,
  '0035-password-change-required': m0035,
};

/** The code's migrations, in the order they run on a new database. */
export const MIGRATIONS: readonly string[] = Object.keys(STEPS).sort();

/** A database that ran migrations this code does not know: a newer zonedeck wrote it. */
export class SchemaTooNewError extends Error {
  constructor(readonly unknown: readonly string[]) {
    const which = unknown.length === 1 ? `migration ${unknown[0]} is unknown` : `migrations ${unknown.join(', ')} are unknown`;
    super(`this database was written by a newer zonedeck: ${which}; upgrade zonedeck or restore a backup`);
  }
}

/** A database that has not run every migration of this code: it is opened for reading before it was migrated. */
export class SchemaBehindError extends Error {
  constructor(readonly missing: readonly string[]) {
    super(`the database has not run ${missing.length === 1 ? `migration ${missing[0]}` : `migrations ${missing.join(', ')}`}: a reader opens it only once the process that writes it has migrated it`);
  }
}

/**
 * Checks, changing nothing, that the database ran exactly this code's migrations: what a
 * reader (the DNS thread) does instead of migrating, after the main thread brought the schema up.
 */
export async function requireMigrated(db: Kysely<any>, dialect: Dialect, steps: Record<string, Step> = STEPS): Promise<void> {
  const applied = await appliedMigrations(db, dialect);
  const unknown = applied.filter((name) => !Object.hasOwn(steps, name));
  if (unknown.length > 0) throw new SchemaTooNewError(unknown);
  const missing = Object.keys(steps).filter((name) => !applied.includes(name));
  if (missing.length > 0) throw new SchemaBehindError(missing.sort());
}

/** The migrations a database has run (none for a new one), oldest name first. */
export async function appliedMigrations(db: Kysely<any>, dialect: Dialect): Promise<string[]> {
  const exists =
    dialect === 'sqlite'
      ? sql<{ n: number }>`select count(*) as n from sqlite_master where type = 'table' and name = 'kysely_migration'`
      : sql<{ n: number }>`select count(*)::int as n from pg_catalog.pg_tables where tablename = 'kysely_migration' and schemaname = any (current_schemas(false))`;
  if (Number((await exists.execute(db)).rows[0]?.n) === 0) return [];
  const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
  return rows.map((r) => r.name);
}

/** The schema's version: the name of the last migration the database has run. */
export async function schemaVersion(db: Kysely<any>): Promise<string> {
  const { rows } = await sql<{ name: string | null }>`select max(name) as name from kysely_migration`.execute(db);
  return rows[0]?.name ?? '';
}

export async function migrate(db: Kysely<any>, dialect: Dialect, steps: Record<string, Step> = STEPS): Promise<void> {
  const migrations: Record<string, Migration> = {};
  for (const [name, step] of Object.entries(steps)) {
    migrations[name] = { up: (d) => step.up(d, dialect) };
  }
  // Branches merged in any order may add migrations below one a database already ran: each is independent.
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations }, allowUnorderedMigrations: true });
  /** How many migrations the database ran; a database that ran one these steps lack is refused. */
  const known = async () => {
    const applied = await appliedMigrations(db, dialect);
    const unknown = applied.filter((name) => !Object.hasOwn(steps, name));
    if (unknown.length > 0) throw new SchemaTooNewError(unknown);
    return applied.length;
  };
  const run = async () => {
    await known();
    const { error, results } = await migrator.migrateToLatest();
    const failed = results?.find((r) => r.status === 'Error');
    // A newer node that migrated between the check above and the migrator's lock (PostgreSQL).
    const missing = error instanceof Error ? /previously executed migration (\S+) is missing/.exec(error.message) : null;
    if (missing) throw new SchemaTooNewError([missing[1]!]);
    if (error || failed) {
      throw new Error(`database migration ${failed?.migrationName ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  if (dialect === 'postgres') return run(); // kysely runs them in one transaction, under an advisory lock
  // kysely runs no transaction on SQLite (its adapter claims no transactional DDL, which SQLite
  // has): one connection, so one BEGIN IMMEDIATE around the whole run makes it atomic, and makes
  // a CLI and a server that start together migrate one after the other. Most starts have nothing
  // to do, and take no write lock for it (the CLI opens the store while the server writes).
  if ((await known()) === Object.keys(steps).length) return;
  await sql`begin immediate`.execute(db);
  try {
    await run();
  } catch (e) {
    await sql`rollback`.execute(db);
    throw e;
  }
  await sql`commit`.execute(db);
}
