/** Accounts: users, teams and their invitations, API tokens, TSIG keys, IP lists, quotas, service settings and the audit log. */
import type { Role } from '../../core/roles';
import type { Scope } from '../../core/scope';
import type { TsigAlgorithmName } from '../../core/tsig-rules';
import type { NewRow, Page, Window } from './common';

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

export type QuotaKind = 'zones' | 'tokens' | 'tsig-keys' | 'webhooks';

export interface AccountRepos {
  users: {
    /** `must_change_password`: the password is one someone else chose (migration 0035). */
    insert(row: Pick<UserRow, 'username' | 'password_hash' | 'created_at'> & Partial<Pick<UserRow, 'is_admin' | 'disabled_at'>> & { must_change_password?: boolean }): Promise<UserRow>;
    byUsername(username: string): Promise<UserRow | undefined>;
    byId(id: number): Promise<UserRow | undefined>;
    count(): Promise<number>;
    /** Sets the password; `mustChange`: someone else chose it, and the user is asked for a new one (else the ask is cleared). */
    setPassword(id: number, hash: string, mustChange?: boolean): Promise<void>;
    /** Whether the user must choose a new password before the dashboard does anything else. */
    mustChangePassword(id: number): Promise<boolean>;
    /** Asks the user for a new password at their next sign-in (an upgraded install whose admin kept the generated one). */
    requirePasswordChange(id: number): Promise<void>;
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
  /** Service-wide switches (migration 0018), by key. */
  settings: {
    get(key: string): Promise<string | undefined>;
    set(key: string, value: string): Promise<void>;
  };
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
}
