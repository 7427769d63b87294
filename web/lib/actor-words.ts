/**
 * Who made a change set and from where, in words: "alice (API token #7)", "via the API".
 * The credential says which of the user's keys was used.
 */
import type { ChangeSet, ChangeSource } from './api-types';
import { preciseAgo } from './format';

/** `token:7` → "API token #7", `session` → "dashboard session", `tsig:acme-key` → "TSIG key acme-key". */
export function credentialWords(credential: string): string {
  if (credential === 'session') return 'dashboard session';
  if (credential === 'cli') return 'admin CLI';
  if (credential === 'system') return 'zonedeck itself';
  const token = /^token:(\d+)$/.exec(credential);
  if (token) return `API token #${token[1]}`;
  if (credential.startsWith('tsig:')) return `TSIG key ${credential.slice(5)}`;
  if (credential.startsWith('transfer:')) return `zone transfer from ${credential.slice(9)}`;
  return credential;
}

/** "alice (API token #7)"; a change zonedeck made by itself (re-signing) is zonedeck's. */
export function actorWords(actor: ChangeSet['actor']): string {
  if (actor.credential === 'system') return 'zonedeck';
  const how = credentialWords(actor.credential);
  return actor.username ? `${actor.username} (${how})` : how;
}

/** The sources as the filter offers them, in the order a user meets them. */
export const SOURCE_LABELS: Record<ChangeSource, string> = {
  dashboard: 'Dashboard',
  api: 'API',
  cli: 'Admin CLI',
  revert: 'Revert',
  rfc2136: 'Dynamic update (RFC 2136)',
  import: 'Zone file import',
  pdns: 'PowerDNS-compatible API',
  dnssec: 'DNSSEC upkeep',
  alias: 'ALIAS addresses',
  transfer: 'Zone transfer from the primary',
  health: 'Health checks',
  system: 'Name servers moved',
};

const VIA: Record<ChangeSource, string> = {
  dashboard: 'in the dashboard',
  api: 'via the API',
  cli: 'with the admin CLI',
  revert: 'by a revert',
  rfc2136: 'by a dynamic update (RFC 2136)',
  import: 'by importing a zone file',
  pdns: 'via the PowerDNS-compatible API',
  dnssec: 'for DNSSEC (re-signing, or withdrawing the CDS delete signal)',
  alias: 'because its ALIAS target’s addresses changed',
  transfer: 'by a zone transfer from its primary',
  health: 'because a pool member went down or came back',
  system: 'because the name servers (NAMESERVERS) moved',
};

export const sourceLabel = (s: string) => SOURCE_LABELS[s as ChangeSource] ?? s;

/** "alice changed example.com 12 s ago via the API" */
export function changeSentence(cs: Pick<ChangeSet, 'actor' | 'source' | 'created_at'>, zone: string, now = Date.now()): string {
  const who = cs.actor.credential === 'system' ? 'zonedeck' : cs.actor.username || credentialWords(cs.actor.credential);
  return `${who} changed ${zone} ${preciseAgo(cs.created_at, now)} ${VIA[cs.source as ChangeSource] ?? `(${cs.source})`}`;
}
