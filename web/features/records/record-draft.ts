/**
 * A record as the user is typing it, checked with the server's own rules (core's name
 * rules and the record-type registry) before it is sent, and turned into what the optimistic
 * row shows meanwhile.
 */
import { APEX, normalizeRecordName, toFqdn } from '../../../server/core/domain-name';
import { RECORD_TYPE_BY_NAME, RECORD_TYPES, type RecordType } from '../../../server/core/record-types';
import { parseTtl } from '../../../server/core/ttl';
import type { DnsRecord, Domain, RecordUpdate } from '../../lib/api-types';

export interface Draft {
  name: string;
  type: string;
  /** One value per field of the type in the registry. */
  values: string[];
  ttl: string;
  /** The RRset's comment as typed ('' : none). */
  comment: string;
}

/** The longest comment the server takes, in characters. */
export const MAX_COMMENT = 512;
const CONTROL = /[\u0000-\u001f\u007f]/;

export const DEFAULT_TYPE = 'A';

export function typeOf(name: string): RecordType {
  return RECORD_TYPE_BY_NAME.get(name) ?? RECORD_TYPES[0]!;
}

export function emptyDraft(type = DEFAULT_TYPE, name = ''): Draft {
  return { name, type, values: typeOf(type).fields.map(() => ''), ttl: '', comment: '' };
}

export function draftOf(r: DnsRecord): Draft {
  const t = typeOf(r.record_type);
  const split = t.split(r.content);
  return { name: r.name, type: r.record_type, values: t.fields.map((_, i) => split[i] ?? ''), ttl: r.ttl, comment: r.comment ?? '' };
}

/** Switching type keeps what still fits: the value of a one-field type carries over to another. */
export function withType(d: Draft, type: string): Draft {
  const t = typeOf(type);
  const values = t.fields.length === 1 && d.values.length === 1 ? d.values : t.fields.map(() => '');
  return { ...d, type, values };
}

export interface Checked {
  errors: Record<string, string>;
  /** Canonical values, when there are no errors. */
  record?: { name: string; record_type: string; content: string; ttl?: string };
}

export function checkDraft(d: Draft, domain: Domain): Checked {
  const errors: Record<string, string> = {};
  const t = typeOf(d.type);
  let name: string | undefined;
  let content: string | undefined;
  try {
    name = normalizeRecordName(d.name, domain.name);
  } catch (e) {
    errors.name = (e as Error).message;
  }
  if (name === APEX && !t.allowedAtApex) errors.record_type = t.apexRule!;
  if (t.fields.length > 1 && d.values.every((v) => v.trim() === '')) errors.content = 'is required';
  else if (t.fields.length === 1 && d.values[0]!.trim() === '' && t.type !== 'TXT') errors.content = 'is required';
  else {
    try {
      content = t.normalize(t.join(d.values));
    } catch (e) {
      errors.content = (e as Error).message;
    }
  }
  const ttl = d.ttl.trim();
  if (ttl !== '') {
    try {
      parseTtl(ttl);
    } catch (e) {
      errors.ttl = (e as Error).message;
    }
  }
  const comment = d.comment.trim();
  if (comment.length > MAX_COMMENT) errors.comment = `must be at most ${MAX_COMMENT} characters`;
  else if (CONTROL.test(comment)) errors.comment = 'must not contain control characters';
  if (Object.keys(errors).length > 0) return { errors };
  return { errors, record: { name: name!, record_type: t.type, content: content!, ...(ttl ? { ttl } : {}) } };
}

/** The row shown while the server has not answered yet; `typed` is the comment in the form. */
export function optimisticRecord(id: number, rec: NonNullable<Checked['record']>, domain: Domain, list: readonly DnsRecord[], previous?: DnsRecord, typed = ''): DnsRecord {
  const rrset = list.find((r) => r.id !== id && r.name === rec.name && r.record_type === rec.record_type);
  const same = previous && previous.name === rec.name && previous.record_type === rec.record_type;
  const ttl = rec.ttl ?? (same ? previous.ttl : (rrset?.ttl ?? previous?.ttl ?? String(domain.minimum_ttl)));
  const row = { id, name: rec.name, record_type: rec.record_type, content: rec.content, ttl: String(Number(ttl)), fqdn: toFqdn(rec.name, domain.name) };
  // The RRset's comment as the server will keep it: an edit's is the one in its form; a new record without one joins its set's.
  const comment = previous ? typed : typed || rrset?.comment;
  return comment ? { ...row, comment } : row;
}

/**
 * What an edit changes, as the update to send: only the fields that differ from the record (the
 * name as the user typed it, `@` when left empty); an edit that changes nothing sends nothing.
 */
export function changesOf(before: DnsRecord, rec: NonNullable<Checked['record']>, d: Draft): RecordUpdate {
  return {
    ...(rec.name !== before.name ? { name: d.name.trim() || '@' } : {}),
    ...(rec.record_type !== before.record_type ? { record_type: rec.record_type } : {}),
    ...(rec.content !== before.content ? { content: rec.content } : {}),
    ...(rec.ttl !== undefined && rec.ttl !== before.ttl ? { ttl: rec.ttl } : {}),
    // Cleared with null; one the user did not touch is not sent, so it stays as it is.
    ...(d.comment.trim() !== (before.comment ?? '') ? { comment: d.comment.trim() || null } : {}),
  };
}

/** The TTL a record would get without one: its RRset's, else the zone's minimum. */
export function defaultTtl(d: Draft, domain: Domain, list: readonly DnsRecord[] | undefined, selfId?: number): string {
  let name: string;
  try {
    name = normalizeRecordName(d.name, domain.name);
  } catch {
    return String(domain.minimum_ttl);
  }
  const rrset = list?.find((r) => r.id !== selfId && r.name === name && r.record_type === d.type);
  return rrset?.ttl ?? String(domain.minimum_ttl);
}

/**
 * A TXT (or SPF) value typed as a zone file would quote it (`"v=spf1 -all"`): the API takes the text
 * itself, so the quotes would be published as part of it and break SPF, DKIM or DMARC.
 */
export function txtQuoteWarning(type: string, value: string): string | undefined {
  if (type !== 'TXT' && type !== 'SPF') return undefined;
  const v = value.trim();
  if (v.length >= 2 && v.startsWith('"') && v.endsWith('"')) return 'The quotes would be published as part of the text: enter it without the surrounding quotes.';
  return undefined;
}
