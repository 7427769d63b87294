/**
 * Versioned migrations kept in the repository, applied in order at start (and by the
 * CLI). Each one is written once for both databases.
 */
import { Migrator, type Kysely, type Migration } from 'kysely';
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

export type Dialect = 'sqlite' | 'postgres';

type Step = { up(db: Kysely<unknown>, dialect: Dialect): Promise<void> };

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
};

export async function migrate(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const migrations: Record<string, Migration> = {};
  for (const [name, step] of Object.entries(STEPS)) {
    migrations[name] = { up: (d) => step.up(d, dialect) };
  }
  // Branches merged in any order may add migrations below one a database already ran: each is independent.
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations }, allowUnorderedMigrations: true });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`database migration ${failed?.migrationName ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}
