/**
 * The Store interface: everything services, the DNS server and the CLI may ask of the
 * database. Services see only this; SQLite and PostgreSQL implement it.
 */
import type { Role } from '../core/roles';
import type { Scope } from '../core/scope';
import type { TsigAlgorithmName } from '../core/tsig-rules';
import type { SecretBox } from './secret-box';
import type { QueryStatsRepo } from './stats-types';
import type { TemplateRepos } from './template-types';
import type { DeletedZoneRepos } from './deleted-zone-types';

export interface UserRow {
  id: number;
  username: string;
  password_hash: string;
  created_at: string;
  /** Manages users and every team (migration 0014). */
  is_admin: boolean;
  /** When the user was disabled: no sign-in, no token of theirs works; null while enabled. */
  disabled_at: string | null;
}

export interface TeamRow {
  id: number;
  /** Lower case, as usernames are. */
  name: string;
  created_at: string;
}

export interface MemberRow {
  /** A new id at every role change (the DNS thread reloads roles by the highest id). */
  id: number;
  team_id: number;
  user_id: number;
  username: string;
  role: Role;
  created_at: string;
}

/** A pending invitation into a team (migration 0022): the user becomes a member when they accept. */
export interface InvitationRow {
  id: number;
  team_id: number;
  /** The team's name (joined in). */
  team_name: string;
  /** As the inviter typed it, lower case. */
  username: string;
  /** The user who had that name when invited; null: nobody, and the invitation never matches. */
  user_id: number | null;
  role: Role;
  /** The inviter's username. */
  invited_by: string;
  created_at: string;
}

/** One event of the account audit log. */
export interface AuditEventRow {
  id: number;
  created_at: string;
  kind: string;
  actor_user_id: number | null;
  actor_username: string;
  credential: string;
  address: string;
  user_agent: string;
  subject_user_id: number | null;
  subject_username: string;
  team_id: number | null;
  team_name: string;
  detail: Record<string, unknown>;
}

/** Which audit events to list: any of the given users (as actor or subject) or teams; `all` for every event. */
export interface AuditFilter {
  all?: boolean;
  userIds?: readonly number[];
  teamIds?: readonly number[];
  kind?: string;
  /** Only events of these kinds. */
  kinds?: readonly string[];
  /** Only events whose actor or subject is this username. */
  username?: string;
  since?: string;
  until?: string;
}

export interface TokenRow {
  id: number;
  user_id: number;
  label: string;
  token_hash: string;
  created_at: string;
  last_used_at: string | null;
  expires_at: string | null;
  /** What the token may do; `{}` is unrestricted. */
  scope: Scope;
}

/** A TSIG key (RFC 8945) of a user. The secret must be kept: verifying a MAC needs it. */
export interface TsigKeyRow {
  id: number;
  user_id: number;
  /** Lower case, no trailing dot; unique across users. */
  name: string;
  algorithm: TsigAlgorithmName;
  /** Base64. Read by the DNS server; shown to the user once, at creation; never logged. */
  secret: string;
  scope: Scope;
  created_at: string;
}

export interface IpRow {
  id: number;
  user_id: number;
  address: string;
  cidr: number;
  active: boolean;
  created_at: string;
}

/** What the DNS thread's periodic comparison needs of a zone (`domains.serials`). */
export type ZoneSerial = Pick<DomainRow, 'id' | 'name' | 'serial_number' | 'created_at'>;

export interface DomainRow {
  id: number;
  user_id: number;
  name: string;
  serial_number: number;
  refresh_interval: number;
  retry_interval: number;
  expire_interval: number;
  minimum_ttl: number;
  dnssec_enabled: boolean;
  delegated: boolean;
  created_at: string;
  updated_at: string;
  /**
   * When DNSSEC was last turned off (null while signed, or never signed): the DNS server
   * publishes the CDS/CDNSKEY delete form for a while after it (RFC 8078 §4).
   */
  dnssec_disabled_at?: string | null;
  /** The team that owns the zone (migration 0014): its members reach it with their role; null for a zone of its user alone. */
  team_id?: number | null;
}

/** A record as a list shows it (the API's record view, the dashboard): no zone id, no timestamps. */
export type ListedRecord = Pick<RecordRow, 'id' | 'name' | 'record_type' | 'content' | 'ttl' | 'disabled'>;

export interface RecordRow {
  id: number;
  domain_id: number;
  name: string;
  record_type: string;
  content: string;
  ttl: number;
  created_at: string;
  updated_at: string;
  /** 1: disabled (kept and listed, never served, signed or transferred); 0: served. */
  disabled: number;
}

/** What the DNS index keeps of a served record (dns/sync/zone-load.ts, zone.ts). */
export type ServedRecord = Pick<RecordRow, 'id' | 'name' | 'record_type' | 'content' | 'ttl'>;

/** One change set of a zone's history; its records are ChangeEntryRows. */
export interface ChangeSetRow {
  id: number;
  domain_id: number;
  serial_before: number;
  serial_after: number;
  created_at: string;
  source: string;
  actor_username: string;
  actor_credential: string;
  comment: string;
  /** JSON: {field: [old, new]}. */
  settings: string;
  added_count: number;
  removed_count: number;
  /** The batch (one apply across zones, migration 0015) it belongs to; null or absent for most. */
  batch_id?: string | null;
}

/** A record a change set added (op 1) or removed (op 0), as it was. */
export interface ChangeEntryRow {
  op: 0 | 1;
  name: string;
  record_type: string;
  ttl: number;
  content: string;
  /** 1: the record was (or became) a disabled one, outside the served zone (IXFR skips it). */
  disabled: number;
}

export interface ChangeFilter {
  source?: string;
  username?: string;
}

/** A zone's DNSSEC key without its secret half: everything the API may show. */
export interface DnssecPublicKey {
  id: number;
  domain_id: number;
  /** DNSKEY flags: 257 for a CSK (Zone Key + Secure Entry Point, RFC 4034 §2.1.1). */
  flags: number;
  algorithm: number;
  key_tag: number;
  /** The DNSKEY public key field, base64. */
  public_key: string;
  /** SHA-256 digest of the DS record (digest type 2), upper-case hex. */
  ds_digest: string;
  created_at: string;
}

export interface DnssecKeyRow extends DnssecPublicKey {
  /** PKCS#8 DER, base64. Only the DNS server reads it; it never reaches a response or a log. */
  private_key: string;
}

export interface SessionRow {
  id_hash: string;
  user_id: number;
  token_id: number;
  token_sealed: string;
  csrf_token: string;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  /** When the user last proved who they are in this session (sign-in, or asked again); null: at created_at. */
  authenticated_at?: string | null;
  /** How the user signed in (migration 0018): `password` (the default), `passkey` or `oidc`. */
  sign_in_method?: string;
}

/** An OpenID identity (issuer and subject) linked to a user (migration 0018). */
export interface IdentityRow {
  id: number;
  issuer: string;
  subject: string;
  user_id: number;
  /** The address the provider last gave for it ('' when none). */
  email: string;
  created_at: string;
  last_used_at: string | null;
}

/** An authorization request in flight (migration 0018): its secrets stay on the server. */
export interface OidcLoginRow {
  state_hash: string;
  browser_hash: string;
  nonce: string;
  code_verifier: string;
  /** The dashboard page to land on after the sign-in (a path of this site). */
  next_path: string;
  expires_at: string;
  /** Migration 0023: the signed-in user who asked to link the identity to their account; null for a sign-in. */
  link_user_id?: number | null;
}

/** A sign-in through the provider that waits for the user's second factor (migration 0023). */
export interface PendingSignInRow {
  /** SHA-256 of the random value in the browser's cookie. */
  step_hash: string;
  user_id: number;
  issuer: string;
  email: string;
  /** How the identity came to the user: `linked`, or `created` (the user was made at this sign-in). */
  how: string;
  next_path: string;
  expires_at: string;
}

/** A passkey (WebAuthn credential) of a user. */
export interface PasskeyRow {
  /** The credential id, base64url. */
  id: string;
  user_id: number;
  name: string;
  /** The COSE public key, base64url. */
  public_key: string;
  counter: number;
  transports: string[];
  created_at: string;
  last_used_at: string | null;
}

/** A user's TOTP factor (RFC 6238); `secret` base32, opened from its sealed form. */
export interface TotpFactorRow {
  user_id: number;
  secret: string;
  created_at: string;
  /** Null while enrolment waits for its first code. */
  confirmed_at: string | null;
  /** The last time step a code was accepted for: no code works twice. */
  last_step: number;
}

export interface Page<T> {
  rows: T[];
  total: number;
}

export interface Window {
  offset: number;
  limit: number;
}

export interface RecordFilter {
  name?: string;
  /** Only records at this relative name or below it. */
  below?: string;
  record_type?: string;
}

/** Failed sign-ins counted under one key (`user:<name>` or `addr:<address>`); times in ms since the epoch. */
export interface SignInFailureRow {
  key: string;
  failures: number;
  last_at: number;
}

/** A token bucket's rate: sustained requests per second and the burst allowed at once. */
export interface BucketRate {
  perSecond: number;
  burst: number;
}

/** Token buckets every node shares. */
export interface SharedBuckets {
  /** Takes one token from the bucket of `key`; 0 when allowed, else the whole seconds to wait. */
  take(key: string, rate: BucketRate): Promise<number>;
}

/** What a node does with the messages other nodes publish (`Repos.publish`). */
export interface FeedHandlers {
  /** One message, in the order the transactions that published them committed. */
  message(payload: string): void;
  /** Listening (again): messages published while not listening are lost, so catch up now. */
  connected(): void;
  /** The connection dropped; it is opened again with backoff. */
  disconnected(err: unknown): void;
}

export interface Feed {
  close(): Promise<void>;
}

export type NewRow<T extends { id: number }> = Omit<T, 'id'>;

export type QuotaKind = 'zones' | 'tokens' | 'tsig-keys';

/** A zone's PowerDNS attributes (migration 0011). */
export interface ZoneAttributes {
  account: string;
  soa_edit_api: string;
  catalog: string;
}

/** A comment on an RRset (migration 0012); `modified_at` in seconds since 1970. */
export interface RRsetComment {
  name: string;
  record_type: string;
  content: string;
  account: string;
  modified_at: number;
}

export const DEFAULT_ZONE_ATTRIBUTES: ZoneAttributes = { account: '', soa_edit_api: 'DEFAULT', catalog: '' };

export interface Repos {
  users: {
    insert(row: Pick<UserRow, 'username' | 'password_hash' | 'created_at'> & Partial<Pick<UserRow, 'is_admin' | 'disabled_at'>>): Promise<UserRow>;
    byUsername(username: string): Promise<UserRow | undefined>;
    byId(id: number): Promise<UserRow | undefined>;
    count(): Promise<number>;
    setPassword(id: number, hash: string): Promise<void>;
    /** Users by name; `search`: a part of the name. */
    page(w: Window, search?: string): Promise<Page<UserRow>>;
    update(id: number, patch: Partial<Pick<UserRow, 'is_admin' | 'disabled_at'>>): Promise<void>;
  };
  teams: {
    insert(row: NewRow<TeamRow>): Promise<TeamRow>;
    byName(name: string): Promise<TeamRow | undefined>;
    byId(id: number): Promise<TeamRow | undefined>;
    /** The teams the user is a member of, by name, with the user's role; every team (role null where not a member) with `all`. */
    page(userId: number, w: Window, all?: boolean): Promise<Page<TeamRow & { role: Role | null; members: number; zones: number }>>;
    delete(id: number): Promise<boolean>;
    members(teamId: number): Promise<MemberRow[]>;
    member(teamId: number, userId: number): Promise<MemberRow | undefined>;
    /** Sets the user's role in the team (a new row, a new id), or adds them. */
    setMember(teamId: number, userId: number, role: Role, at: string): Promise<MemberRow>;
    removeMember(teamId: number, userId: number): Promise<boolean>;
    /** The user's role in every team they belong to. */
    rolesOf(userId: number): Promise<Map<number, Role>>;
    /** Every membership, for the DNS server (which keys reach which team's zones). */
    allMembers(): Promise<Array<{ id: number; team_id: number; user_id: number; role: Role }>>;
    /** A value that changes whenever a membership is added, changed or removed (count and highest id: a change is a new row). */
    version(): Promise<string>;
    /** Zones the team owns. */
    zoneCount(teamId: number): Promise<number>;
  };
  /** Pending team invitations (migration 0022). */
  invitations: {
    insert(row: Omit<InvitationRow, 'id' | 'team_name'>): Promise<InvitationRow>;
    /** A team's invitations, by username. */
    ofTeam(teamId: number): Promise<InvitationRow[]>;
    /** The invitations a user may accept, newest first (never those made for a name nobody had). */
    ofUser(userId: number): Promise<InvitationRow[]>;
    /** The team's invitation for this username, or for this user. */
    byUsername(teamId: number, username: string): Promise<InvitationRow | undefined>;
    byUser(teamId: number, userId: number): Promise<InvitationRow | undefined>;
    countOfTeam(teamId: number): Promise<number>;
    delete(id: number): Promise<boolean>;
  };
  secondFactors: {
    totp(userId: number): Promise<TotpFactorRow | undefined>;
    /** Starts (or restarts) enrolment with a new secret; unconfirmed until `confirmTotp`. */
    setTotp(userId: number, secret: string, at: string): Promise<void>;
    confirmTotp(userId: number, at: string, step: number): Promise<void>;
    /** Records an accepted step, only if it is later than the last one (false: a code already used, or raced). */
    useStep(userId: number, step: number): Promise<boolean>;
    /** Removes the TOTP factor and every recovery code. */
    remove(userId: number): Promise<void>;
    /** Replaces the user's recovery codes with these hashes. */
    setRecoveryCodes(userId: number, hashes: readonly string[]): Promise<void>;
    /** Marks the unused code with this hash used; false when there is none. */
    useRecoveryCode(userId: number, hash: string, at: string): Promise<boolean>;
    recoveryCodesLeft(userId: number): Promise<number>;
  };
  passkeys: {
    insert(row: PasskeyRow): Promise<void>;
    byId(id: string): Promise<PasskeyRow | undefined>;
    byUser(userId: number): Promise<PasskeyRow[]>;
    /** After a sign-in with it: the counter it reported and when. */
    used(id: string, counter: number, at: string): Promise<void>;
    delete(userId: number, id: string): Promise<boolean>;
    /** Stores a ceremony's challenge (single use, until `expiresAt`). */
    addChallenge(challenge: string, purpose: 'register' | 'authenticate', userId: number | null, expiresAt: string): Promise<void>;
    /** Takes (deletes) a live challenge of this purpose (and user, for a registration); false when there is none. */
    takeChallenge(challenge: string, purpose: 'register' | 'authenticate', userId: number | null, now: string): Promise<boolean>;
  };
  /** Single sign-on (migration 0018): linked identities, users' email addresses, requests in flight. */
  identities: {
    byIssuerSubject(issuer: string, subject: string): Promise<IdentityRow | undefined>;
    byUser(userId: number): Promise<IdentityRow[]>;
    /** Links an identity; false when (issuer, subject) is linked already (a race). */
    insert(row: Omit<IdentityRow, 'id'>): Promise<boolean>;
    used(id: number, email: string, at: string): Promise<void>;
    /** Users whose email is this (lower case) address. */
    usersByEmail(email: string): Promise<UserRow[]>;
    /** A user's email address (lower case), or null. */
    emailOf(userId: number): Promise<string | null>;
    setEmail(userId: number, email: string | null): Promise<void>;
    addLogin(row: OidcLoginRow): Promise<void>;
    /** Takes (deletes) the request with this state hash; undefined when there is none (unknown, or used already). */
    takeLogin(stateHash: string): Promise<OidcLoginRow | undefined>;
    /** Unlinks one of the user's identities; false when the user has none with this id. */
    unlink(userId: number, id: number): Promise<boolean>;
    addPending(row: PendingSignInRow): Promise<void>;
    pending(stepHash: string): Promise<PendingSignInRow | undefined>;
    /** Takes (deletes) a pending sign-in; undefined when another request took it first. */
    takePending(stepHash: string): Promise<PendingSignInRow | undefined>;
  };
  /** Service-wide switches (migration 0018), by key. */
  settings: {
    get(key: string): Promise<string | undefined>;
    set(key: string, value: string): Promise<void>;
  };
  /** Per-zone query statistics (migration 0016). */
  queryStats: QueryStatsRepo;
  audit: {
    insert(row: NewRow<AuditEventRow>): Promise<AuditEventRow>;
    /** Newest first. */
    page(filter: AuditFilter, w: Window): Promise<Page<AuditEventRow>>;
    /** Removes events created before `at`; returns how many. */
    prune(at: string): Promise<number>;
  };
  tokens: {
    insert(row: NewRow<TokenRow>): Promise<TokenRow>;
    /** The token with this hash and its user, in one query (the authentication hot path). */
    withUser(hash: string): Promise<{ token: TokenRow; user: UserRow } | undefined>;
    byId(id: number): Promise<TokenRow | undefined>;
    listByUser(userId: number): Promise<TokenRow[]>;
    /** `apiOnly`: without the dashboard sessions' tokens; `newestFirst`: by id descending (else ascending). */
    page(userId: number, w: Window, opts?: { apiOnly?: boolean; newestFirst?: boolean }): Promise<Page<TokenRow>>;
    delete(id: number): Promise<boolean>;
    touch(id: number, at: string): Promise<void>;
  };
  tsigKeys: {
    insert(row: NewRow<TsigKeyRow>): Promise<TsigKeyRow>;
    byName(name: string): Promise<TsigKeyRow | undefined>;
    page(userId: number, w: Window): Promise<Page<TsigKeyRow>>;
    listByUser(userId: number): Promise<TsigKeyRow[]>;
    /** Every key, for the DNS server. */
    all(): Promise<TsigKeyRow[]>;
    /**
     * A value that changes whenever a key is created or revoked (keys are never edited and ids
     * never reused), so the DNS server reloads the keys only when this differs: one row read.
     */
    version(): Promise<string>;
    delete(id: number): Promise<boolean>;
  };
  ips: {
    insert(row: NewRow<IpRow>): Promise<IpRow>;
    page(userId: number, w: Window): Promise<Page<IpRow>>;
    listByUser(userId: number): Promise<IpRow[]>;
    find(userId: number, address: string, cidr: number): Promise<IpRow | undefined>;
    delete(id: number): Promise<boolean>;
  };
  domains: {
    insert(row: NewRow<DomainRow>): Promise<DomainRow>;
    byName(name: string): Promise<DomainRow | undefined>;
    byId(id: number): Promise<DomainRow | undefined>;
    /** The zones the user may read (theirs, and their teams'), by name; `only`: just these names (a token scoped to zones). */
    page(userId: number, w: Window, search?: string, only?: readonly string[]): Promise<Page<DomainRow>>;
    /** Moves the zone to a team, or (null) to its user alone. */
    setOwner(zone: DomainRow, owner: { user_id: number; team_id: number | null }): Promise<DomainRow>;
    /** Every zone, for the DNS server's index. */
    all(): Promise<DomainRow[]>;
    /**
     * Zones by id after `afterId`, at most `limit`, with only what the DNS thread compares and lists
     * (its reconcile and catalog read every zone this way, a slice at a time, between answers).
     */
    serials(afterId: number, limit: number): Promise<ZoneSerial[]>;
    /** Zones that are ancestors or descendants of `name` (not `name` itself). */
    related(name: string): Promise<DomainRow[]>;
    /**
     * Locks the zone, as this transaction read it, for the rest of the transaction and returns it
     * as it is now: PostgreSQL reads it again with SELECT … FOR UPDATE; SQLite's transaction holds
     * the write lock from its start, so the row it read is current. Serials are computed from it.
     */
    lock(zone: DomainRow): Promise<DomainRow>;
    /** Sets the patch's columns on `zone` (as the caller read it, e.g. lock's) and returns that row with them. */
    update(zone: DomainRow, patch: Partial<NewRow<DomainRow>>): Promise<DomainRow>;
    /**
     * The same, only while the zone holds at most `recordsAtMost` records (as counted after this
     * transaction's own writes): null, and nothing set, when it holds more. A change set checks
     * its zone's size in the statement that bumps the serial, with no read of its own.
     */
    update(zone: DomainRow, patch: Partial<NewRow<DomainRow>>, guard: { recordsAtMost: number }): Promise<DomainRow | null>;
    delete(id: number): Promise<boolean>;
  };
  /** Per-user limits: what a user holds, counted where it is created. */
  quotas: {
    /**
     * Serializes, for the rest of the transaction, the creations of one kind (for one user, or with
     * user 0 for all): PostgreSQL's pg_advisory_xact_lock; SQLite's one writer already does.
     */
    lock(kind: QuotaKind, userId: number): Promise<void>;
    /** How many of this kind the user holds (tokens: API tokens, not the dashboard's session tokens). */
    count(kind: QuotaKind, userId: number): Promise<number>;
  };
  /** What PowerDNS clients set on a zone and read back (account, soa_edit_api, catalog); nothing zonedeck serves. */
  zoneAttributes: {
    /** By domain id; a zone without a row has the defaults. */
    get(domainIds: readonly number[]): Promise<Map<number, ZoneAttributes>>;
    set(domainId: number, attributes: ZoneAttributes): Promise<void>;
  };
  /** Comments on RRsets (the PowerDNS API's `comments`); nothing zonedeck serves. */
  rrsetComments: {
    /** A zone's comments, by RRset in the order written; `name` narrows to one name. */
    byDomain(domainId: number, name?: string): Promise<RRsetComment[]>;
    /** Sets the comments of one RRset to exactly `list` (empty: none). */
    replace(domainId: number, name: string, recordType: string, list: readonly Omit<RRsetComment, 'name' | 'record_type'>[]): Promise<void>;
  };
  dnssecKeys: {
    insert(row: NewRow<DnssecKeyRow>): Promise<DnssecPublicKey>;
    /** A zone's keys with their private halves, oldest first (for the DNS server). */
    signingKeys(domainId: number): Promise<DnssecKeyRow[]>;
    /** The public halves of these zones' keys, oldest first. */
    publicKeys(domainIds: number[]): Promise<DnssecPublicKey[]>;
    delete(id: number): Promise<boolean>;
    /** Removes every key of a zone; returns how many. */
    deleteByDomain(domainId: number): Promise<number>;
  };
  sessions: {
    insert(row: SessionRow): Promise<SessionRow>;
    byIdHash(idHash: string): Promise<SessionRow | undefined>;
    touch(idHash: string, at: string): Promise<void>;
    delete(idHash: string): Promise<boolean>;
    /** Records that the session's user proved who they are now (asked again for a sensitive act). */
    authenticated(idHash: string, at: string): Promise<void>;
    /** The session whose token this is (a dashboard request's credential), if any. */
    byTokenId(tokenId: number): Promise<SessionRow | undefined>;
    /** The user's live sessions, newest first. */
    byUser(userId: number): Promise<SessionRow[]>;
    /** Removes sessions whose expires_at is before `at`; returns how many. */
    deleteExpired(at: string): Promise<number>;
  };
  records: {
    /**
     * One page of a zone's records of one type, by name and id, after `after` (keyset paging on the
     * records_type index): a bounded query, whatever the zone's size.
     */
    ofType(domainId: number, recordType: string, after: { name: string; id: number } | null, limit: number): Promise<ListedRecord[]>;
    byId(domainId: number, id: number): Promise<RecordRow | undefined>;
    /** By name, type and id. */
    page(domainId: number, filter: RecordFilter, w: Window): Promise<Page<ListedRecord>>;
    atName(domainId: number, name: string): Promise<RecordRow[]>;
    /** The records at any of these names, by id (one query for many names). */
    atNames(domainId: number, names: readonly string[]): Promise<RecordRow[]>;
    /**
     * What a change's draft of the zone needs: the records at `names` (by id), and which of the
     * names `above` them hold a DNAME, the one thing of theirs a change below can break (RFC 6672
     * §2.4). Few names: one query for both.
     */
    near(domainId: number, names: readonly string[], above: readonly string[]): Promise<{ rows: ListedRecord[]; dnames: string[] }>;
    byDomain(domainId: number): Promise<RecordRow[]>;
    /**
     * The zone's served (not disabled) records by name, type and id, after `after` (a record of the
     * previous slice), at most `limit`: what the DNS index loads, in slices, a name's rows together.
     */
    served(domainId: number, after: ServedRecord | null, limit: number): Promise<ServedRecord[]>;
    /** The zone's record count as the database keeps it: one row read, whatever the zone's size. */
    zoneCount(domainId: number): Promise<number>;
    /**
     * Each zone's content tag (migration 0021): random, made anew by the database at every write
     * of the zone's records. Records read after a tag are at least as new as it; while the tag is
     * unchanged, they are unchanged. Zones without one are missing.
     */
    contentTags(): Promise<Map<number, string>>;
    update(id: number, patch: Partial<NewRow<RecordRow>>): Promise<RecordRow>;
    /** Inserts many rows (imports, bulk changes): on SQLite one cached statement per row, on PostgreSQL up to 500 rows per statement. Returns the stored rows, in no particular order. */
    insertMany(rows: NewRow<RecordRow>[]): Promise<RecordRow[]>;
    deleteMany(ids: number[]): Promise<void>;
  };
  changes: {
    insert(row: NewRow<ChangeSetRow>, entries: readonly ChangeEntryRow[]): Promise<ChangeSetRow>;
    /** Marks a change set as one of a batch (migration 0015). */
    setBatch(id: number, batchId: string): Promise<void>;
    /** The change sets of a batch, by id, with their zone's name. */
    ofBatch(batchId: string): Promise<Array<ChangeSetRow & { zone: string }>>;
    byId(domainId: number, id: number): Promise<ChangeSetRow | undefined>;
    /** A zone's change sets, newest first. */
    page(domainId: number, filter: ChangeFilter, w: Window): Promise<Page<ChangeSetRow>>;
    /** The records of a change set, removed then added, in the order they were written (at most `limit` of one side when `op` is given). */
    entries(changeSetId: number, limit?: number, op?: 0 | 1): Promise<ChangeEntryRow[]>;
    /** The records of several change sets at once, by change set id. */
    entriesOf(changeSetIds: number[]): Promise<Map<number, ChangeEntryRow[]>>;
    /** The zone's change sets from the one whose serial_before is `serial` on, oldest first. */
    from(domainId: number, serial: number): Promise<ChangeSetRow[]>;
    /** Removes change sets created before `at`; returns how many. */
    prune(at: string): Promise<number>;
  };
  /** Deleted zones kept for restoring (migration 0019). */
  deletedZones: DeletedZoneRepos['deletedZones'];
  templates: TemplateRepos['templates'];
  zoneTemplates: TemplateRepos['zoneTemplates'];
  /** Records across zones (GET /records). */
  recordSearch: TemplateRepos['recordSearch'];
  signInFailures: {
    byKeys(keys: readonly string[]): Promise<SignInFailureRow[]>;
    /** One more failure under each key at `at`; a key whose last failure is before `forgottenBefore` starts again from one. */
    add(keys: readonly string[], at: number, forgottenBefore: number): Promise<void>;
    clear(keys: readonly string[]): Promise<void>;
    /**
     * Reserves an attempt: in one transaction (the keys' rows locked on PostgreSQL),
     * `waitFor` judges the keys' rows; when it gives 0, one more failure is counted under each key
     * before the password is checked, so parallel guesses cannot all pass the check. Returns the wait.
     */
    reserve(keys: readonly string[], at: number, forgottenBefore: number, waitFor: (rows: SignInFailureRow[]) => number): Promise<number>;
    /** Takes back one reserved failure under each key (the attempt succeeded). */
    forgive(keys: readonly string[]): Promise<void>;
    /** Removes keys whose last failure is before `before`; returns how many. */
    prune(before: number): Promise<number>;
  };
  catalog: {
    /** The catalog zone's serial (RFC 9432): it moves on whenever a zone is created or deleted. */
    serial(): Promise<number>;
    /** Moves the serial on, in the transaction that creates or deletes a zone; returns the new one. */
    bump(now: Date): Promise<number>;
  };
  /**
   * Sends `payload` (under 8,000 bytes) to every node's `Store.listen` when the transaction
   * commits, and never if it rolls back (PostgreSQL NOTIFY). A no-op on SQLite: one node only.
   */
  publish(payload: string | (() => string)): Promise<void>;
}

/**
 * What each repository offers that only reads. The API, the PowerDNS API, the BFF, the DNS server
 * and the CLI get these alone (`ReadStore`): every write goes through a service.
 */
interface ReadMethods {
  users: 'byUsername' | 'byId' | 'count' | 'page';
  teams: 'byName' | 'byId' | 'page' | 'members' | 'member' | 'rolesOf' | 'allMembers' | 'version' | 'zoneCount';
  invitations: 'ofTeam' | 'ofUser' | 'byUsername' | 'byUser' | 'countOfTeam';
  secondFactors: 'totp' | 'recoveryCodesLeft';
  passkeys: 'byId' | 'byUser';
  identities: 'byIssuerSubject' | 'byUser' | 'usersByEmail' | 'emailOf';
  settings: 'get';
  queryStats: 'series' | 'top';
  audit: 'page';
  tokens: 'withUser' | 'byId' | 'listByUser' | 'page';
  tsigKeys: 'byName' | 'page' | 'listByUser' | 'all' | 'version';
  ips: 'page' | 'listByUser' | 'find';
  domains: 'byName' | 'byId' | 'page' | 'all' | 'serials' | 'related';
  quotas: 'count';
  zoneAttributes: 'get';
  rrsetComments: 'byDomain';
  dnssecKeys: 'signingKeys' | 'publicKeys';
  sessions: 'byIdHash' | 'byTokenId' | 'byUser';
  records: 'ofType' | 'byId' | 'page' | 'atName' | 'atNames' | 'near' | 'byDomain' | 'served' | 'zoneCount' | 'contentTags';
  changes: 'ofBatch' | 'byId' | 'page' | 'entries' | 'entriesOf' | 'from';
  deletedZones: 'page' | 'byId';
  templates: 'byId' | 'byName' | 'page';
  zoneTemplates: 'ofDomain' | 'zonesOf';
  recordSearch: 'page' | 'scan';
  signInFailures: 'byKeys';
  catalog: 'serial';
}

export type ReadRepos = { readonly [K in keyof ReadMethods]: Pick<Repos[K], ReadMethods[K] & keyof Repos[K]> };

/** The store as the layers above the services see it: reads, and the store's own state (kind, health, the feed). */
export type ReadStore = ReadRepos & Pick<Store, 'kind' | 'version' | 'listen' | 'ping' | 'schemaVersion' | 'sharedBuckets' | 'exposed'>;

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
  dnssecKeys: 'insert' | 'delete' | 'deleteByDomain';
  deletedZones: 'archive' | 'unarchive' | 'purge';
  catalog: 'bump';
}

/** Repos without the zone writes: what every service but the change sets writes with (accounts, tokens, sessions …). */
export type ServiceRepos = Omit<Repos, keyof ZoneWriteMethods> & { readonly [K in keyof ZoneWriteMethods]: Omit<Repos[K], ZoneWriteMethods[K]> };

/** The store as the services other than the change sets see it: their transactions hold no zone writer either. */
export type ServiceStore = ServiceRepos &
  Omit<Store, keyof Repos | 'transaction' | 'resealSecrets' | 'close'> & {
    transaction<T>(fn: (tx: ServiceRepos) => Promise<T>): Promise<T>;
  };

export interface Store extends Repos {
  readonly kind: 'sqlite' | 'postgres';
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
  /** The schema's version: the last migration the database has run (`/readyz` shows it). */
  schemaVersion(): Promise<string>;
  close(): Promise<void>;
}
