/**
 * The store's three faces. `Store` holds every write and goes to the change sets and the wiring
 * alone; `ServiceStore` is what the other services write with (no zone write); `ReadStore` is what
 * the layers above the services and the DNS thread get: reads only, at run time as in its type.
 */
import type { SecretBox } from '../secret-box';
import type { AccountRepos } from './accounts';
import type { DeletedZoneRepos } from './deleted-zones';
import type { Feed, FeedHandlers, SharedBuckets, ClusterRepos } from './cluster';
import type { HistoryRepos } from './history';
import type { SignInRepos } from './sign-in';
import type { QueryStatsRepo } from './stats';
import type { TemplateRepos } from './across-zones';
import type { ZoneRepos } from './zones';
import type { CatalogRepos, TransferRepos } from './transfers';
import type { WebhookRepos } from './webhooks';
import type { HealthRepos } from './health';

/** Every repository of the store, by area (each area's file holds its rows and repos). */
export interface Repos extends AccountRepos, SignInRepos, ZoneRepos, TransferRepos, CatalogRepos, HistoryRepos, ClusterRepos, HealthRepos, WebhookRepos {
  /** Per-zone query statistics (migration 0016). */
  queryStats: QueryStatsRepo;
  /** Deleted zones kept for restoring (migration 0019). */
  deletedZones: DeletedZoneRepos['deletedZones'];
  templates: TemplateRepos['templates'];
  zoneTemplates: TemplateRepos['zoneTemplates'];
  /** Records across zones (GET /records). */
  recordSearch: TemplateRepos['recordSearch'];
}

/**
 * What each repository offers that only reads. The API, the PowerDNS API, the BFF, the DNS server
 * and the CLI get these alone (`ReadStore`): every write goes through a service. A value, not only
 * a type: a read-only store is built from these names (store/repos/read-repos.ts), so that its
 * objects have no write method at run time either.
 */
export const READ_METHODS = {
  users: ['byUsername', 'byId', 'count', 'page', 'mustChangePassword'],
  teams: ['byName', 'byId', 'page', 'members', 'member', 'rolesOf', 'allMembers', 'version', 'zoneCount'],
  invitations: ['ofTeam', 'ofUser', 'byUsername', 'byUser', 'countOfTeam'],
  secondFactors: ['totp', 'recoveryCodesLeft'],
  passkeys: ['byId', 'byUser'],
  identities: ['byIssuerSubject', 'byUser', 'usersByEmail', 'emailOf'],
  settings: ['get'],
  queryStats: ['series', 'top'],
  audit: ['page'],
  tokens: ['withUser', 'byId', 'listByUser', 'page'],
  tsigKeys: ['byName', 'page', 'listByUser', 'all', 'version'],
  ips: ['page', 'listByUser', 'find'],
  domains: ['byName', 'byId', 'page', 'acrossAccounts', 'all', 'serials', 'related'],
  quotas: ['count'],
  zoneAttributes: ['get'],
  rrsetComments: ['byDomain'],
  dnssecKeys: ['signingKeys', 'publicKeys'],
  sessions: ['byIdHash', 'byTokenId', 'byUser'],
  records: ['ofType', 'byId', 'page', 'atName', 'atNames', 'near', 'byDomain', 'served', 'zoneCount', 'maxTtl', 'contentTags'],
  changes: ['ofBatch', 'byId', 'page', 'entries', 'entriesOf', 'from'],
  deletedZones: ['page', 'byId'],
  templates: ['byId', 'byName', 'page'],
  zoneTemplates: ['ofDomain', 'zonesOf'],
  recordSearch: ['page', 'scan'],
  signInFailures: ['byKeys'],
  catalog: ['serial'],
  transfers: ['get', 'due'],
  dnssecWatch: ['get'],
  poolHealth: ['zones', 'reports', 'states', 'transitions'],
  catalogs: ['all', 'byZone', 'byId', 'due', 'memberZones'],
  webhooks: ['byId', 'listByUser', 'activeFor'],
  webhookDeliveries: ['byId', 'page', 'due'],
} as const satisfies { readonly [K in keyof Repos]?: ReadonlyArray<keyof Repos[K]> };

type ReadMethods = { [K in keyof typeof READ_METHODS]: (typeof READ_METHODS)[K][number] };

export type ReadRepos = { readonly [K in keyof ReadMethods]: Pick<Repos[K], ReadMethods[K] & keyof Repos[K]> };

/** The store as the layers above the services see it: reads, and the store's own state (kind, health, the feed). */
export type ReadStore = ReadRepos & Pick<Store, 'kind' | 'version' | 'listen' | 'ping' | 'diskFullSince' | 'schemaVersion' | 'sharedBuckets' | 'exposed'>;

/**
 * A store opened for reading alone (the DNS thread's): its own connection, read-only in the
 * database too (SQLite `readonly`, PostgreSQL read-only transactions); it migrates and seals nothing.
 */
export type ReaderStore = ReadStore & Pick<Store, 'close'>;

/**
 * The writes of a zone's content and life (records, the zone row, its keys, history and archive):
 * only the change-set transaction (services/change-sets.ts) holds them, so that every one of
 * them bumps the serial, keeps history and tells DNS. A type error, not a
 * convention, stops a second writer.
 */
interface ZoneWriteMethods {
  records: 'update' | 'insertMany' | 'deleteMany';
  domains: 'insert' | 'lock' | 'update' | 'setOwner' | 'delete';
  changes: 'insert' | 'setBatch' | 'prune';
  dnssecKeys: 'insert' | 'update' | 'delete' | 'deleteByDomain';
  deletedZones: 'archive' | 'unarchive' | 'purge';
  catalog: 'bump';
}

/** Repos without the zone writes: what every service but the change sets writes with (accounts, tokens, sessions …). */
export type ServiceRepos = Omit<Repos, keyof ZoneWriteMethods> & { readonly [K in keyof ZoneWriteMethods]: Omit<Repos[K], ZoneWriteMethods[K]> };

/** The store as the services other than the change sets see it: their transactions hold no zone writer either. */
export type ServiceStore = ServiceRepos &
  Omit<Store, keyof Repos | 'transaction' | 'resealSecrets' | 'close' | 'reads'> & {
    transaction<T>(fn: (tx: ServiceRepos) => Promise<T>): Promise<T>;
  };

export interface Store extends Repos {
  readonly kind: 'sqlite' | 'postgres';
  /** This store's read-only face, on the same connection: what the services hand to the layers above. */
  readonly reads: ReadStore;
  /** The key that seals the stored secrets. */
  readonly secrets?: SecretBox;
  /** Re-seals every stored secret under `next`, in one transaction; returns how many (`secrets rotate`). */
  resealSecrets?(next: SecretBox): Promise<number>;
  /** DATA_DIR or database files others than the owner can still read (the start warns of them). */
  readonly exposed?: readonly string[];
  /**
   * A number that changes whenever another connection (another thread or process) has committed
   * a change; unset where the store cannot tell (PostgreSQL), and then nothing may be cached.
   */
  version?(): number;
  /** Runs `fn` in one write transaction: all of it is stored, or none. */
  transaction<T>(fn: (tx: Repos) => Promise<T>): Promise<T>;
  /** Token buckets shared by every node (PostgreSQL); absent on SQLite, where the API keeps its own in memory. */
  readonly sharedBuckets?: SharedBuckets;
  /**
   * Receives what every process publishes (`Repos.publish`) on a connection of its own,
   * reopened with backoff when it drops (PostgreSQL LISTEN). Absent on SQLite.
   */
  listen?(handlers: FeedHandlers): Feed;
  /** Whether the database answers (for readiness). */
  ping(): Promise<boolean>;
  /**
   * When the writes began to find the disk full (ISO time), while none has been written since;
   * null when the last write had room. Absent where the store cannot tell (PostgreSQL's disk is
   * the database server's).
   */
  diskFullSince?(): string | null;
  /** The schema's version: the last migration the database has run (`/readyz` shows it). */
  schemaVersion(): Promise<string>;
  close(): Promise<void>;
}
