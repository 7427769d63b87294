/**
 * The Repos of the Store interface written once over kysely, for SQLite and PostgreSQL
 * alike. Rows are mapped here (0/1 to booleans, bigint to number) so nothing above sees
 * a database type. Each table's repo lives in a file of its own, grouped by area (repos/zones, repos/identity); this puts them together.
 */
import { kyselyRunner, type Runner } from './prepared';
import type { Database } from '../schema';
import type { Dialect } from '../migrate';
import type { Kysely } from 'kysely';
import type { DomainRow, Repos } from '../types';
import type { SecretBox } from '../secret-box';
import { repoContext } from './repo-kit';
import { createClusterRepos } from './cluster-repos';
import { createTeamRepos } from './identity/team-repos';
import { createStatsRepos } from './stats-repos';
import { createFactorRepos } from './identity/factor-repos';
import { createOidcRepos } from './identity/oidc-repos';
import { createTemplateRepos } from './template-repos';
import { createDeletedZoneRepos } from './zones/deleted-zone-repos';
import { createCatalogRepos, createTransferRepos } from './zones/transfers-repo';
import { usersRepo } from './identity/users-repo';
import { tokensRepo } from './identity/tokens-repo';
import { tsigKeysRepo } from './identity/tsig-keys-repo';
import { ipsRepo } from './identity/ips-repo';
import { domainsRepo } from './zones/domains-repo';
import { quotasRepo } from './identity/quotas-repo';
import { zoneAttributesRepo } from './zones/zone-attributes-repo';
import { rrsetCommentsRepo } from './zones/rrset-comments-repo';
import { dnssecKeysRepo, dnssecWatchRepo } from './zones/dnssec-keys-repo';
import { poolHealthRepo } from './zones/pool-health-repo';
import { sessionsRepo } from './identity/sessions-repo';
import { recordsRepo } from './zones/records-repo';
import { changesRepo } from './zones/changes-repo';

/**
 * The repos on `db` (the store, or one transaction of it). `runner` runs the prepared queries;
 * through kysely by default, SQLite's transactions pass one that runs them on better-sqlite3.
 * `zones`, given by a transaction that no other connection can write under (SQLite's group
 * commit holds the write lock), keeps the zones it read by name: writes through these repos keep
 * it true, and the caller empties it when it rolls any of them back.
 */
export function createRepos(db: Kysely<Database>, dialect: Dialect, box: SecretBox, runner: Runner = kyselyRunner(db), zones?: Map<string, DomainRow>): Repos {
  const ctx = repoContext(db, dialect, box, runner, zones);
  return {
    users: usersRepo(ctx),
    tokens: tokensRepo(ctx),
    tsigKeys: tsigKeysRepo(ctx),
    ips: ipsRepo(ctx),
    domains: domainsRepo(ctx),
    quotas: quotasRepo(ctx),
    zoneAttributes: zoneAttributesRepo(ctx),
    rrsetComments: rrsetCommentsRepo(ctx),
    dnssecKeys: dnssecKeysRepo(ctx),
    dnssecWatch: dnssecWatchRepo(ctx),
    poolHealth: poolHealthRepo(ctx),
    sessions: sessionsRepo(ctx),
    records: recordsRepo(ctx),
    changes: changesRepo(ctx),
    ...createClusterRepos(db, dialect),
    ...createTeamRepos(db),
    ...createStatsRepos(db, dialect, ctx.p),
    ...createFactorRepos(db, box),
    ...createOidcRepos(db),
    ...createTemplateRepos(db, dialect),
    ...createDeletedZoneRepos(db, dialect),
    ...createTransferRepos(db),
    ...createCatalogRepos(db),
  };
}
