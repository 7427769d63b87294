/**
 * The zone's rules, judged on a draft as it will be, on every name the change touches: CNAME
 * exclusivity (RFC 1034 §3.6.2, RFC 2181 §10.1), the types allowed at the apex, the managed apex NS
 * set, ALIAS targets, and the cross-record rules of core/zone-rules.ts (DS only at a delegation,
 * RFC 4035 §2.4; one DNAME per name, none beside a delegation and nothing below one, RFC 6672
 * §2.4; no ALIAS below a delegation). A name above that the change leaves alone is not judged:
 * what breaks a rule there was there before the change.
 */
import { APEX, toFqdn } from '../../core/domain-name';
import { Conflict, Invalid } from '../../core/errors';
import { RECORD_TYPE_BY_NAME, transferOnlyRefusal } from '../../core/record-types';
import { aliasTargetRefusal, zoneRuleViolationsSliced } from '../../core/zone-rules';
import type { Blame, ZoneDraft } from './zone-draft';

/** The names above a relative name in its zone, nearest first, ending with the apex. */
export function ancestorsOf(name: string): string[] {
  if (name === APEX) return [];
  // Tails of the one string (no split and join per label: a 127-label name would cost its length squared).
  const out: string[] = [];
  for (let dot = name.indexOf('.'); dot >= 0; dot = name.indexOf('.', dot + 1)) out.push(name.slice(dot + 1));
  out.push(APEX);
  return out;
}

/** Whether a name lies below any of `cuts` (names of the zone, not the apex). */
const belowAny = (name: string, cuts: ReadonlySet<string>): boolean => cuts.size > 0 && ancestorsOf(name).some((n) => cuts.has(n));

/** New DNAMEs up to which the names below each are read by a query of its own; more, and the zone is read once. */
const DNAME_QUERIES = 16;

/** Names below a new DNAME read per DNAME: enough to name what it would hide. */
const BELOW_DNAME = 20;

/**
 * Whether a draft may store the DNSSEC types a signed primary transfers (DNSKEY, RRSIG, NSEC,
 * NSEC3, NSEC3PARAM): only a zone transfer's (`draft.transfer`); every user write is refused.
 */
export const mayWriteTransferOnly = (draft: ZoneDraft): boolean => draft.transfer;

/** Throws Conflict (CNAME exclusivity) or Invalid (every other broken rule, keyed by `blame`) when the draft breaks a rule. */
export async function validateDraft(draft: ZoneDraft, blame: Blame): Promise<void> {
  const invalid: Record<string, string> = {};
  for (const name of draft.touchedNames()) {
    await draft.slice();
    cnameAlone(draft, name, blame);
    const types = draft.types(name);
    if (!mayWriteTransferOnly(draft)) {
      for (const type of types) {
        const why = transferOnlyRefusal(type);
        if (why) invalid[blame(name, type, 'zone-rule', 'record_type')] = why;
      }
    }
    if (name === APEX) {
      for (const type of types) {
        const def = RECORD_TYPE_BY_NAME.get(type);
        if (def && !def.allowedAtApex && type !== 'NS') invalid[blame(name, type, 'apex-type')] = def.apexRule ?? `a ${type} record cannot stand at the zone apex (RFC 1034 §3.6.2)`;
      }
      if (!draft.system && !draft.transfer && apexNsChanged(draft)) invalid[blame(name, 'NS', 'managed-ns')] = 'the NS set at the apex is managed by zonedeck';
    }
    // An ALIAS to a name only internal resolvers answer would publish internal addresses.
    for (const alias of types.includes('ALIAS') ? draft.rrset(name, 'ALIAS') : []) {
      const why = aliasTargetRefusal(alias.content, draft.options.aliasDeny);
      if (why) invalid[blame(name, 'ALIAS', 'zone-rule', 'content')] = why;
    }
    // A new ALIAS the DNS server could never resolve would leave its name without addresses: refuse it now.
    if (!draft.options.aliasResolver && types.includes('ALIAS') && !hadType(draft, name, 'ALIAS')) {
      invalid[blame(name, 'ALIAS', 'zone-rule', 'record_type')] = 'ALIAS needs a resolver to look its target up: the operator must set RESOLVER (host:port of a recursive resolver)';
    }
  }
  for (const v of await crossRecordViolations(draft)) invalid[blame(v.record.name, v.record.record_type, 'zone-rule', v.field)] ??= v.message;
  if (Object.keys(invalid).length > 0) throw new Invalid(invalid);
}

const hadType = (draft: ZoneDraft, name: string, type: string) => draft.storedAt(name).some((r) => r.record_type === type);

/** The types a CNAME may have beside it: a signed primary's signature and NSEC (RFC 2181 §10.1, RFC 4035 §2.5). */
const BESIDE_CNAME = new Set(['RRSIG', 'NSEC']);

/** A CNAME stands alone at its name, one of it (RFC 1034 §3.6.2, RFC 2181 §10.1): Conflict, blaming whichever came last. */
function cnameAlone(draft: ZoneDraft, name: string, blame: Blame): void {
  // A signed zone's RRSIG and NSEC stand beside a CNAME (RFC 4035 §2.5); only a transfer writes them.
  const types = draft.types(name).filter((t) => !BESIDE_CNAME.has(t));
  const cname = draft.at(name).get('CNAME') ?? [];
  if (cname.length === 0 || (types.length <= 1 && cname.length <= 1)) return;
  const label = toFqdn(name, draft.zone.name);
  const others = types.filter((t) => t !== 'CNAME');
  if (hadType(draft, name, 'CNAME') && others.length > 0) {
    throw new Conflict(`${label} is a CNAME; no other record can stand beside it`, {
      [blame(name, others[0]!, 'data-beside-cname')]: `${label} has a CNAME record; no other record can stand beside it (RFC 1034 §3.6.2)`,
    });
  }
  const what = others.length > 0 ? `${others.join(', ')} records exist` : 'a CNAME record already exists';
  throw new Conflict(`${label}: ${what}; a CNAME excludes all other data at its name`, {
    [blame(name, 'CNAME', 'cname-beside-data')]: `${what} at ${label}; a CNAME must be the only record at its name (RFC 1034 §3.6.2)`,
  });
}

/** Whether the served apex NS set changes (disabling an apex NS takes it out of the served set: a change too). */
function apexNsChanged(draft: ZoneDraft): boolean {
  const before = draft.storedAt(APEX).filter((r) => r.record_type === 'NS' && !r.disabled);
  const after = (draft.at(APEX).get('NS') ?? []).filter((e) => !e.disabled);
  if (before.length !== after.length) return true;
  return before.some((r) => !after.some((e) => e.content === r.content && e.ttl === r.ttl));
}

/**
 * The cross-record rules of core/zone-rules.ts (DS, DNAME, ALIAS) on the touched names, with a
 * DNAME above them and, under a new DNAME, whatever lies below it; with the delegations above
 * a touched ALIAS and the ALIAS records below a new delegation.
 */
async function crossRecordViolations(draft: ZoneDraft) {
  const changed = [...draft.touchedNames()].filter((n) => draft.types(n).length > 0 || draft.storedAt(n).length > 0);
  if (changed.length === 0) return [];
  const names = new Set(changed);
  const dnames = new Set(changed.filter((name) => name !== APEX && draft.types(name).includes('DNAME')));
  if (dnames.size > 0) {
    // Names below a new DNAME, as they are stored (the draft knows those it loaded). Each query
    // scans the zone (a suffix match): past a few DNAMEs, one read of the whole zone costs less.
    if (dnames.size > DNAME_QUERIES) await draft.loadAll();
    for (const name of draft.whole ? [] : dnames) await draft.loadBelow(name, BELOW_DNAME);
    for (const n of draft.names()) if (belowAny(n, dnames)) names.add(n);
  }
  const context = await aliasContext(draft, changed);
  // Every name above a judged one is loaded or probed by `load`; after `loadAll` a name not stored has no records.
  const above = new Set<string>();
  for (const name of names) for (const n of ancestorsOf(name)) if (!names.has(n)) above.add(n);
  const records: { name: string; record_type: string }[] = [];
  for (const name of names) {
    await draft.slice();
    for (const [record_type, entries] of draft.at(name)) for (let i = 0; i < entries.length; i++) records.push({ name, record_type });
  }
  for (const name of context) if (!names.has(name)) for (const type of ['NS', 'ALIAS']) if (draft.at(name).get(type)?.length) records.push({ name, record_type: type });
  for (const name of above) {
    if (draft.isKnown(name)) {
      if (draft.at(name).get('DNAME')?.length) records.push({ name, record_type: 'DNAME' });
      continue;
    }
    const dname = draft.dnameAt(name);
    if (dname === undefined) throw new Error(`zone draft: ${name} was neither loaded nor probed for a DNAME`);
    if (dname) records.push({ name, record_type: 'DNAME' });
  }
  return (await zoneRuleViolationsSliced(draft.zone.name, records, draft.slice)).filter(
    (v) => names.has(v.record.name) && v.record.record_type !== 'CNAME' && !(v.field === 'name' && draft.types(v.record.name).includes('CNAME')),
  );
}

/**
 * The names besides the touched ones that the ALIAS rules need (an ALIAS below a delegation is
 * never answered): the names above a touched ALIAS, which may delegate, and the ALIAS records
 * below a new delegation, all loaded. Nothing is read for a change without either.
 */
async function aliasContext(draft: ZoneDraft, changed: readonly string[]): Promise<string[]> {
  const above = new Set<string>();
  const cuts = new Set<string>();
  for (const name of changed) {
    if (name === APEX) continue;
    const types = draft.types(name);
    if (types.includes('ALIAS')) for (const n of ancestorsOf(name)) if (n !== APEX) above.add(n);
    if (types.includes('NS') && !hadType(draft, name, 'NS')) cuts.add(name);
  }
  const below = new Set<string>();
  // By each name's ancestors, not each cut: a template of many delegations meets as many names.
  if (cuts.size > 0) for (const n of draft.whole ? draft.names() : await draft.storedNamesOfType('ALIAS')) if (belowAny(n, cuts)) below.add(n);
  if (above.size === 0 && below.size === 0) return [];
  await draft.load([...above, ...below]);
  return [...above, ...below];
}
