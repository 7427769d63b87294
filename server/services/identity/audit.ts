/**
 * The account audit log: sign-ins (and failed ones), sign-outs, passwords,
 * tokens, TSIG keys, team memberships and user administration, each stored with who did it
 * (user and credential), from where (address, user agent) and whose account or which team it
 * concerns. Kept HISTORY_DAYS, like the zones' change sets.
 */
import type { AuditEventRow, AuditFilter, Page, ServiceRepos, ServiceStore, TokenRow, TsigKeyRow, UserRow, Window } from '../../store/types';

/** What happened (the `kind` of an event). */
export const AUDIT_KINDS = [
  'sign-in',
  'sign-in-failed',
  'sign-out',
  'session-ended',
  'password-changed',
  'password-reset',
  'token-created',
  'token-revoked',
  'tsig-key-created',
  'tsig-key-deleted',
  'team-created',
  'team-deleted',
  'member-added',
  'member-role-changed',
  'member-removed',
  'member-invited',
  'invitation-accepted',
  'invitation-declined',
  'invitation-cancelled',
  'zone-moved',
  'zone-deleted',
  'zone-restored',
  'user-created',
  'user-disabled',
  'user-enabled',
  'admin-granted',
  'admin-revoked',
  'totp-enabled',
  'totp-removed',
  'recovery-codes-renewed',
  'second-factor-reset',
  'reauthenticated',
  'passkey-added',
  'passkey-removed',
  'identity-linked',
  'identity-unlinked',
  'sign-in-settings-changed',
  'user-email-changed',
  'ip-added',
  'ip-removed',
] as const;
export type AuditKind = (typeof AUDIT_KINDS)[number];

/** Who did it: the user (absent for the admin CLI or an unknown name) and the credential (`token:<id>`, `session`, `cli`). */
export interface AuditActor {
  userId?: number | null;
  username: string;
  credential: string;
  address?: string;
  userAgent?: string;
}

export interface AuditInput {
  kind: AuditKind;
  actor: AuditActor;
  /** Whose account it concerns (the new member, the user whose password was reset …). */
  subject?: { id: number | null; username: string };
  team?: { id: number; name: string };
  detail?: Record<string, unknown>;
}

/** What a reader of the log asks for (`GET /api/v1/audit`); every field narrows the list. */
export interface AuditQuery {
  kind?: AuditKind;
  /** Events whose actor or subject is this user. */
  username?: string;
  /** Events of this team (by name). */
  team?: string;
  /** ISO timestamps: from `since` (inclusive) to `until` (exclusive). */
  since?: string;
  until?: string;
}

/** The roles whose holders read every event of their team. */
const TEAM_READERS = new Set(['owner', 'admin']);

const NOTHING: Page<AuditEventRow> = { rows: [], total: 0 };

type Viewer = Pick<UserRow, 'id' | 'username' | 'is_admin'>;

/**
 * A team's events as a reader who is not an administrator sees them: the address and user agent
 * they came from only for the team's owners and admins, and for the one who did it (their own);
 * an editor or viewer learns what happened, not where an owner works from.
 */
function asSeenBy(viewer: Viewer, roles: ReadonlyMap<number, string>, page: Page<AuditEventRow>): Page<AuditEventRow> {
  const hidden = (e: AuditEventRow) => e.team_id != null && e.actor_user_id !== viewer.id && !TEAM_READERS.has(roles.get(e.team_id) ?? '');
  return { ...page, rows: page.rows.map((e) => (hidden(e) ? { ...e, address: '', user_agent: '' } : e)) };
}

/** What the log keeps of a token: which one and what it may do, never its secret. */
export const tokenDetail = (t: TokenRow) => ({ token_id: t.id, label: t.label, expires_at: t.expires_at, scope: t.scope });

/** What the log keeps of a TSIG key: never its secret. */
export const tsigKeyDetail = (k: TsigKeyRow) => ({ name: k.name, algorithm: k.algorithm, scope: k.scope });

/** Longest user agent kept: it is the client's to choose. */
const MAX_USER_AGENT = 256;

export function createAudit(store: ServiceStore) {
  return {
    /** Stores one event, in `repos` when given (the transaction of the change it records). */
    async record(e: AuditInput, repos: ServiceRepos = store): Promise<AuditEventRow> {
      return repos.audit.insert({
        created_at: new Date().toISOString(),
        kind: e.kind,
        actor_user_id: e.actor.userId ?? null,
        actor_username: e.actor.username,
        credential: e.actor.credential,
        address: e.actor.address ?? '',
        user_agent: (e.actor.userAgent ?? '').slice(0, MAX_USER_AGENT),
        subject_user_id: e.subject?.id ?? null,
        subject_username: e.subject?.username ?? '',
        team_id: e.team?.id ?? null,
        team_name: e.team?.name ?? '',
        detail: e.detail ?? {},
      });
    },

    /**
     * The events `viewer` may read, newest first: those they did or that concern
     * them, every event of the teams they are an owner or admin of, and, for an administrator,
     * all. A team that does not exist has no events (the same answer as a team one may not read).
     */
    async list(viewer: Viewer, q: AuditQuery, w: Window): Promise<Page<AuditEventRow>> {
      const base: AuditFilter = { kind: q.kind, since: q.since, until: q.until, username: q.username };
      let teamId: number | undefined;
      if (q.team !== undefined) {
        const team = await store.teams.byName(q.team.trim().toLowerCase());
        if (!team) return NOTHING;
        teamId = team.id;
      }
      if (viewer.is_admin) return store.audit.page(teamId === undefined ? { ...base, all: true } : { ...base, teamIds: [teamId] }, w);
      const roles = await store.teams.rolesOf(viewer.id);
      const readable = [...roles].filter(([, role]) => TEAM_READERS.has(role)).map(([id]) => id);
      const seen = (page: Page<AuditEventRow>) => asSeenBy(viewer, roles, page);
      if (teamId === undefined) return seen(await store.audit.page({ ...base, userIds: [viewer.id], teamIds: readable }, w));
      if (readable.includes(teamId)) return store.audit.page({ ...base, teamIds: [teamId] }, w);
      // Of another team, only the viewer's own events (the filter cannot also ask for a second user's).
      if (q.username !== undefined && q.username.toLowerCase() !== viewer.username) return NOTHING;
      return seen(await store.audit.page({ ...base, teamIds: [teamId], username: viewer.username }, w));
    },

    /**
     * Events of these kinds of one team, newest first, for a member of it who may read the zone
     * (its History shows who could reach it): where each came from only as `asSeenBy` allows.
     */
    async ofTeam(viewer: Viewer, teamId: number, kinds: readonly string[], w: Window): Promise<Page<AuditEventRow>> {
      const page = await store.audit.page({ teamIds: [teamId], kinds }, w);
      return viewer.is_admin ? page : asSeenBy(viewer, await store.teams.rolesOf(viewer.id), page);
    },

    prune: (days: number, now = new Date()) => store.audit.prune(new Date(now.getTime() - days * 86_400_000).toISOString()),
  };
}

export type Audit = ReturnType<typeof createAudit>;
