/**
 * What a template holds, checked as it is saved: its name, and its RRsets as a body gives them
 * (bounded, contents without placeholders canonical already) or as a zone holds them.
 */
import { APEX, MAX_NAME_LENGTH, normalizeRecordName } from '../../core/domain-name';
import { Invalid } from '../../core/errors';
import { slicer } from '../../core/pause';
import { recordType, transferOnlyRefusal } from '../../core/record-types';
import { placeholders, unfill } from '../../core/template-render';
import { parseTtl } from '../../core/ttl';
import type { TemplateRRset } from '../../store/types/across-zones';
import type { DomainRow, ReadRepos } from '../../store/types';
import { FieldCheck } from '../changes/rule-fields';
import { recordCount } from './template-render';

const TEMPLATE_NAME = /^[A-Za-z0-9][A-Za-z0-9 ._-]{0,63}$/;
const MAX_CONTENT = 4096;

/** RRsets as a body gives them. */
export type RRsetsInput = Array<{ name?: string; record_type: string; ttl?: string; records: string[] }>;

export function parseTemplateName(raw: string | undefined): string {
  const name = raw?.trim() ?? '';
  if (!TEMPLATE_NAME.test(name)) throw Invalid.field('name', 'must be 1–64 letters, digits, spaces, dots, hyphens or underscores');
  return name;
}

/** Whether a template's name is the apex of every zone it is rendered for (`@`, `{zone}.`), whatever the variables. */
function rendersToApex(raw: string): boolean {
  if (placeholders(raw).length > 0) return false;
  try {
    return normalizeRecordName(raw.replaceAll('{zone}', 'template.invalid'), 'template.invalid') === APEX;
  } catch {
    return false;
  }
}

/**
 * The RRsets of a body, checked and bounded (at most `maxRecords`, MAX_RECORDS_PER_ZONE); contents
 * without placeholders canonical already. The apex NS set is the service's: never in a template.
 */
export async function parseRRsets(list: RRsetsInput, maxRecords: number): Promise<TemplateRRset[]> {
  // Counted before any is checked: a template never holds more than one zone may.
  const total = recordCount({ rrsets: list });
  if (total > maxRecords) throw Invalid.field('rrsets', `holds ${total} records; a template holds at most ${maxRecords} (MAX_RECORDS_PER_ZONE)`);
  const check = new FieldCheck();
  const seen = new Set<string>();
  const slice = slicer();
  const out: TemplateRRset[] = [];
  for (const [i, rs] of list.entries()) {
    await slice();
    const at = `rrsets.${i}`;
    const type = check.run(`${at}.record_type`, () => recordType(rs.record_type));
    const raw = rs.name ?? APEX;
    let name = raw;
    if (raw.length > MAX_NAME_LENGTH) check.fail(`${at}.name`, `must be at most ${MAX_NAME_LENGTH} characters`);
    else if (placeholders(raw).length === 0 && !raw.includes('{zone}')) name = check.run(`${at}.name`, () => normalizeRecordName(raw, 'template.invalid')) ?? raw;
    if (type?.type === 'NS' && rendersToApex(raw)) check.fail(`${at}.record_type`, 'the NS set at the apex is managed by zonedeck');
    // Templates write to primary zones only: the DNSSEC types of a signed primary are refused when saved, not first when applied.
    const transferOnly = type ? transferOnlyRefusal(type.type) : null;
    if (transferOnly) check.fail(`${at}.record_type`, transferOnly);
    const ttl = check.run(`${at}.ttl`, () => parseTtl(rs.ttl ?? '3600')) ?? 3600;
    if (rs.records.length === 0) check.fail(`${at}.records`, 'must hold at least one record');
    const records = rs.records.map((c, j) => {
      if (c.length > MAX_CONTENT) {
        check.fail(`${at}.records.${j}`, `must be at most ${MAX_CONTENT} characters`);
        return c;
      }
      if (!type || /\{[a-z][a-z0-9_]*\}/.test(c)) return c;
      return check.run(`${at}.records.${j}`, () => type.normalize(c)) ?? c;
    });
    const k = `${name.toLowerCase()} ${type?.type}`;
    if (seen.has(k)) check.fail(`${at}.name`, `${name} ${type?.type} is in the template already; put all its records in one RRset`);
    seen.add(k);
    out.push({ name, record_type: type?.type ?? rs.record_type, ttl, records });
  }
  check.done();
  return out;
}

/** A zone's records as template RRsets: disabled records and the apex NS set left out; its name becomes `{zone}`. */
export async function rrsetsOfZone(store: ReadRepos, zone: DomainRow): Promise<TemplateRRset[]> {
  const sets = new Map<string, TemplateRRset>();
  const slice = slicer();
  for (const r of await store.records.byDomain(zone.id)) {
    await slice();
    if (r.disabled || (r.name === APEX && r.record_type === 'NS')) continue;
    const name = unfill(r.name, zone.name);
    const k = `${name} ${r.record_type}`;
    const content = unfill(r.content, zone.name);
    const set = sets.get(k);
    if (set) set.records.push(content);
    else sets.set(k, { name, record_type: r.record_type, ttl: r.ttl, records: [content] });
  }
  return [...sets.values()].sort((a, b) => a.name.localeCompare(b.name) || a.record_type.localeCompare(b.record_type));
}
