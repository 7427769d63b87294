/**
 * Account audit events in words: each kind's label (the filter offers them in this order), who
 * did it with which credential, and an event's details as short "key: value" parts.
 */
import type { AuditKind } from '../../../server/services/identity/audit';
import type { AuditEvent } from '../../lib/api-types';
import { credentialWords } from '../../lib/actor-words';

export const KIND_LABELS: Record<AuditKind, string> = {
  'sign-in': 'Signed in',
  'sign-in-failed': 'Sign-in failed',
  'sign-out': 'Signed out',
  'session-ended': 'Session ended',
  'password-changed': 'Password changed',
  'password-reset': 'Password reset',
  'token-created': 'API token created',
  'token-revoked': 'API token revoked',
  'tsig-key-created': 'TSIG key created',
  'tsig-key-deleted': 'TSIG key deleted',
  'team-created': 'Team created',
  'team-deleted': 'Team deleted',
  'member-added': 'Member added',
  'member-role-changed': 'Member’s role changed',
  'member-removed': 'Member removed',
  'member-invited': 'Member invited',
  'invitation-accepted': 'Invitation accepted',
  'invitation-declined': 'Invitation declined',
  'invitation-cancelled': 'Invitation cancelled',
  'zone-moved': 'Zone moved',
  'zone-deleted': 'Zone deleted',
  'zone-restored': 'Zone restored',
  'user-created': 'User created',
  'user-disabled': 'User disabled',
  'user-enabled': 'User enabled',
  'admin-granted': 'Admin granted',
  'admin-revoked': 'Admin revoked',
  'totp-enabled': 'Two-factor sign-in turned on',
  'totp-removed': 'Two-factor sign-in turned off',
  'recovery-codes-renewed': 'Recovery codes renewed',
  'second-factor-reset': 'Second factor reset by an administrator',
  reauthenticated: 'Password confirmed again',
  'passkey-added': 'Passkey added',
  'passkey-removed': 'Passkey removed',
  'identity-linked': 'Single sign-on identity linked',
  'identity-unlinked': 'Single sign-on identity unlinked',
  'sign-in-settings-changed': 'Sign-in settings changed',
  'user-email-changed': 'Email address changed',
  'ip-added': 'IP range registered',
  'ip-removed': 'IP range removed',
};

export const isKind = (k: string): k is AuditKind => k in KIND_LABELS;

export const kindLabel = (k: string) => (isKind(k) ? KIND_LABELS[k] : k);

/**
 * "alice (dashboard session)", "alice (password)" for a sign-in; a failed sign-in has no actor
 * (the name tried is its subject), so it was made by someone not signed in.
 */
export function auditActorWords(actor: AuditEvent['actor']): string {
  if (actor.credential === 'password') return actor.username ? `${actor.username} (password)` : 'not signed in';
  const how = credentialWords(actor.credential);
  return actor.username ? `${actor.username} (${how})` : how;
}

/** `{role: "editor", zone: "example.com"}` → ["role: editor", "zone: example.com"]; nested values as JSON. */
export function detailParts(detail: AuditEvent['detail'] | null | undefined): string[] {
  if (!detail) return [];
  return Object.entries(detail)
    .filter(([, v]) => v !== null && v !== undefined && v !== '')
    .map(([k, v]) => `${k.replace(/_/g, ' ')}: ${typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? String(v) : JSON.stringify(v)}`);
}

export interface AuditFilter {
  kind: string;
  username: string;
  team: string;
  page: number;
}

/** The filters and page as an audit URL holds them (`?kind=sign-in&username=alice&page=2`); an unknown kind is ignored. */
export function auditFilterOfParams(params: URLSearchParams): AuditFilter {
  const kind = params.get('kind') ?? '';
  return {
    kind: isKind(kind) ? kind : '',
    username: (params.get('username') ?? '').trim(),
    team: (params.get('team') ?? '').trim(),
    page: Math.max(1, Number(params.get('page')) || 1),
  };
}
