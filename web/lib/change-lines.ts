/**
 * A change set as text: its records as +/- lines in zone-file style, RRset by RRset, and its
 * settings as "Minimum TTL 3600 → 300". Lists from the server carry at most 1,000 records a
 * side; `missingLines` says how many it left out.
 */
import { RECORD_TYPE_BY_NAME } from '../../server/core/record-types';
import { SOA_BOUNDS, type SoaField } from '../../server/core/soa';
import type { ChangeRecord, ChangeSet } from './api-types';

export interface DiffLine {
  sign: '+' | '-';
  name: string;
  ttl: string;
  record_type: string;
  content: string;
  /** A disabled record (kept, not served): disabling a record reads as `- www A …` then `+ www A … ; disabled`. */
  disabled?: boolean;
}

// The apex first, then names and types in text order, as the records table sorts them.
const rrsetKey = (r: ChangeRecord) => `${r.name === '@' ? '' : r.name}\u0000${r.record_type}`;

/** What was removed and added, one RRset after another, its removed lines first (as a unified diff reads). */
export function diffLines(cs: Pick<ChangeSet, 'added' | 'removed'>): DiffLine[] {
  const line = (sign: DiffLine['sign']) => (r: ChangeRecord, order: number) => ({
    sign,
    order,
    key: rrsetKey(r),
    line: { sign, name: r.name, ttl: r.ttl, record_type: r.record_type, content: r.content, ...(r.disabled ? { disabled: true } : {}) },
  });
  const all = [...cs.removed.map(line('-')), ...cs.added.map(line('+'))];
  all.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.sign === b.sign ? a.order - b.order : a.sign === '-' ? -1 : 1));
  return all.map((x) => x.line);
}

/**
 * Content as a zone file and dig print it: TXT as quoted character-strings (`"v=spf1 -all"`), so a
 * record whose text itself holds quotes (`"\"v=DMARC1\""`) looks different from one that does not.
 */
export function presentation(recordType: string, content: string): string {
  try {
    return RECORD_TYPE_BY_NAME.get(recordType)?.zoneText(content) ?? content;
  } catch {
    return content;
  }
}

/** `- www 300 IN A 192.0.2.1`; `+ @ 300 IN TXT "v=spf1 -all"` */
export const zoneFileLine = (l: DiffLine) => `${l.sign} ${l.name} ${l.ttl} IN ${l.record_type} ${presentation(l.record_type, l.content)}${l.disabled ? ' ; disabled' : ''}`;

/** `+ www A 192.0.2.9`: for a sentence, where the TTL would be noise. */
export const shortLine = (l: DiffLine) => `${l.sign} ${l.name} ${l.record_type} ${presentation(l.record_type, l.content)}${l.disabled ? ' (disabled)' : ''}`;

/** How many records the list left out of this change set (GET …/changes/:id has them all). */
export const missingLines = (cs: Pick<ChangeSet, 'added' | 'removed' | 'added_count' | 'removed_count'>) =>
  Math.max(0, cs.added_count - cs.added.length) + Math.max(0, cs.removed_count - cs.removed.length);

const onOff = (v: unknown) => (v === true ? 'on' : v === false ? 'off' : String(v));
const shown = (v: unknown) => (v === null || v === undefined || v === '' ? '(none)' : String(v));

const TRANSFER_LABELS: Record<string, string> = { also_notify: 'Also notify', allow_transfer: 'Allow transfers from', transfer_tsig_key: 'Transfer key' };

/** "Minimum TTL 3600 → 300", "DNSSEC off → on", one per changed setting. */
export function settingLines(settings: ChangeSet['settings']): string[] {
  return Object.entries(settings).map(([field, [before, after]]) => {
    if (field in SOA_BOUNDS) return `${SOA_BOUNDS[field as SoaField].label} ${shown(before)} → ${shown(after)}`;
    if (field === 'dnssec_enabled') return `DNSSEC ${onOff(before)} → ${onOff(after)}`;
    if (field === 'dnssec_keys') return `DNSSEC keys ${shown(before)} → ${shown(after)}`;
    // The zone's own transfers, the lists as the form shows them.
    if (field in TRANSFER_LABELS) {
      const list = (v: unknown) => (Array.isArray(v) ? v.join(', ') : v);
      return `${TRANSFER_LABELS[field]} ${shown(list(before))} → ${shown(list(after))}`;
    }
    return `${field} ${shown(before)} → ${shown(after)}`;
  });
}
