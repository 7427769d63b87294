/**
 * A scope as the dashboard shows and edits it: one line of text per part, lists
 * typed comma-separated, and the server's per-entry errors (`scope.zones.2`) shown on the list's field.
 */
import type { ScopeInput } from '../../server/core/scope';

export interface ScopeDraft {
  zones: string;
  names: string;
  types: string;
  allowedIps: string;
  readOnly: boolean;
}

export const EMPTY_SCOPE: ScopeDraft = { zones: '', names: '', types: '', allowedIps: '', readOnly: false };

const list = (text: string) =>
  text
    .split(/[,\s]+/)
    .map((s) => s.trim())
    .filter(Boolean);

/** The scope to send: only the parts the user filled in. */
export function scopeOf(d: ScopeDraft): ScopeInput {
  const out: ScopeInput = {};
  if (list(d.zones).length) out.zones = list(d.zones);
  if (list(d.names).length) out.names = list(d.names);
  if (list(d.types).length) out.types = list(d.types);
  if (list(d.allowedIps).length) out.allowed_ips = list(d.allowedIps);
  if (d.readOnly) out.read_only = true;
  return out;
}

/** The first server message about a part of the scope (`scope.names` or any `scope.names.<i>`), naming the entry. */
export function scopeError(fields: Record<string, string>, part: keyof ScopeInput, sent: ScopeInput): string | undefined {
  const prefix = `scope.${part}`;
  for (const [key, message] of Object.entries(fields)) {
    if (key === prefix) return message;
    if (key.startsWith(`${prefix}.`)) {
      const entry = (sent[part] as string[] | undefined)?.[Number(key.slice(prefix.length + 1))];
      return entry === undefined ? message : `“${entry}”: ${message}`;
    }
  }
  return undefined;
}

/** One line per restricted part, for a table cell; empty for an unrestricted scope. */
export function describeScope(s: ScopeInput): string[] {
  const lines: string[] = [];
  if (s.zones?.length) lines.push(`Zones: ${s.zones.join(', ')}`);
  if (s.names?.length) lines.push(`Names: ${s.names.join(', ')}`);
  if (s.types?.length) lines.push(`Types: ${s.types.join(', ')}`);
  if (s.allowed_ips?.length) lines.push(`From: ${s.allowed_ips.join(', ')}`);
  if (s.read_only) lines.push('Read-only');
  return lines;
}
