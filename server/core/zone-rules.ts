/**
 * The rules that hold across the records of a zone, not within one record: CNAME at the apex
 * and beside other data (RFC 1034 §3.6.2, RFC 2181 §10.1), DNAME one per name, with nothing
 * below it and no NS beside it off the apex (RFC 6672 §2.4), DS only at a delegation
 * (RFC 4035 §2.4). Pure: the change-set function checks the zone as it will be with it, and
 * each violation points at the record that breaks the rule (an import maps it to its line).
 * ALIAS (CNAME flattening, no RFC) stands at any name, as PowerDNS has it: one per name, no A or
 * AAAA beside it (those are its target's), and never where a child zone answers instead: beside
 * the NS of a delegation or below one (RFC 1034 §4.2.1).
 */
import { APEX } from './domain-name';

export interface RuleRecord {
  /** Relative to the zone, '@' for the apex. */
  name: string;
  record_type: string;
}

export interface ZoneRuleViolation<R extends RuleRecord = RuleRecord> {
  /** The record that breaks the rule. */
  record: R;
  /** Which field is to blame, for the API's error body. */
  field: 'name' | 'record_type';
  message: string;
}

const fqdnOf = (name: string, zone: string) => (name === APEX ? zone : `${name}.${zone}`);

/** The names strictly above a relative name, below the apex, nearest first. */
const ancestorsOf = (name: string): string[] => {
  if (name === APEX) return [];
  // Tails of the one string: a split and join per label would cost a long name its length squared.
  const out: string[] = [];
  for (let dot = name.indexOf('.'); dot >= 0; dot = name.indexOf('.', dot + 1)) out.push(name.slice(dot + 1));
  return out;
};

/** Every violation among `records`, the zone's records as they will be. */
export function zoneRuleViolations<R extends RuleRecord>(zone: string, records: readonly R[]): ZoneRuleViolation<R>[] {
  const out: ZoneRuleViolation<R>[] = [];
  const steps = violations(zone, records, out);
  while (!steps.next().done);
  return out;
}

/** The same, letting the event loop turn (`step`) between names: a change may touch hundreds of thousands. */
export async function zoneRuleViolationsSliced<R extends RuleRecord>(zone: string, records: readonly R[], step: () => Promise<void>): Promise<ZoneRuleViolation<R>[]> {
  const out: ZoneRuleViolation<R>[] = [];
  for (const steps = violations(zone, records, out); !steps.next().done;) await step();
  return out;
}

/** Adds the violations among `records` to `out`, yielding after each name. */
function* violations<R extends RuleRecord>(zone: string, records: readonly R[], out: ZoneRuleViolation<R>[]): Generator<void> {
  const byName = new Map<string, R[]>();
  for (const r of records) {
    const list = byName.get(r.name);
    if (list) list.push(r);
    else byName.set(r.name, [r]);
  }
  const dnames = new Set<string>();
  for (const [name, rs] of byName) if (rs.some((r) => r.record_type === 'DNAME')) dnames.add(name);
  // An ALIAS below a delegation would never be answered: the child zone answers there.
  const cuts = new Set<string>();
  for (const [name, rs] of byName) if (name !== APEX && rs.some((r) => r.record_type === 'NS')) cuts.add(name);

  const fail = (record: R, field: ZoneRuleViolation['field'], message: string) => out.push({ record, field, message });

  for (const [name, rs] of byName) {
    const label = fqdnOf(name, zone);
    const types = new Set(rs.map((r) => r.record_type));
    const first = (type: string) => rs.find((r) => r.record_type === type)!;
    const count = (type: string) => rs.filter((r) => r.record_type === type).length;

    if (types.has('CNAME')) {
      if (name === APEX) fail(first('CNAME'), 'record_type', 'a CNAME record cannot stand at the zone apex (RFC 1034 §3.6.2)');
      const other = rs.find((r) => r.record_type !== 'CNAME');
      if (other) fail(other, 'name', `${label} has a CNAME record; no other record can stand beside it (RFC 1034 §3.6.2)`);
      if (count('CNAME') > 1) fail(rs.filter((r) => r.record_type === 'CNAME')[1]!, 'record_type', `${label} can have only one CNAME record (RFC 2181 §10.1)`);
    }
    if (types.has('ALIAS')) {
      const alias = first('ALIAS');
      if (count('ALIAS') > 1) fail(rs.filter((r) => r.record_type === 'ALIAS')[1]!, 'record_type', `${label} can have only one ALIAS record: A and AAAA queries there get the addresses of one target`);
      if (types.has('A') || types.has('AAAA')) {
        fail(alias, 'record_type', `${label} has an ALIAS record, whose target's addresses are the A and AAAA answers there; no A or AAAA record can stand beside it`);
      }
      if (name !== APEX && types.has('NS')) {
        fail(alias, 'record_type', `an ALIAS cannot stand beside the NS records of a delegation at ${label}: the child zone answers there (RFC 1034 §4.2.1)`);
      }
      const cut = cuts.size > 0 ? ancestorsOf(name).find((n) => cuts.has(n)) : undefined;
      if (cut) {
        const message = `${label} is below the delegation at ${fqdnOf(cut, zone)}: an ALIAS there would never be answered, the child zone answers for it (RFC 1034 §4.2.1)`;
        fail(alias, 'name', message);
        // Blamed on the NS too, so whichever of the two a change adds is named.
        fail(
          byName.get(cut)!.find((r) => r.record_type === 'NS')!,
          'name',
          message,
        );
      }
    }
    if (count('DNAME') > 1) fail(rs.filter((r) => r.record_type === 'DNAME')[1]!, 'record_type', `${label} can have only one DNAME record (RFC 6672 §2.4)`);
    if (types.has('DNAME') && types.has('NS') && name !== APEX) {
      fail(first('DNAME'), 'record_type', `a DNAME cannot stand beside the NS records of a delegation at ${label} (RFC 6672 §2.4)`);
    }
    if (types.has('DS') && (name === APEX || !types.has('NS'))) {
      fail(
        first('DS'),
        'record_type',
        name === APEX
          ? 'a DS record belongs in the parent zone, at the delegation (RFC 4035 §2.4)'
          : `a DS record stands only at a delegation: ${label} has no NS records (RFC 4035 §2.4); add the NS records first, or in the same change (Terraform: depends_on the NS record)`,
      );
    }
    if (dnames.size > 0 && name !== APEX) {
      for (const above of [...ancestorsOf(name), APEX]) {
        if (dnames.has(above)) {
          fail(rs[0]!, 'name', `${label} is below the DNAME at ${fqdnOf(above, zone)}; nothing may exist below a DNAME (RFC 6672 §2.4)`);
          break;
        }
      }
    }
    yield;
  }
}

/**
 * Suffixes an ALIAS target may not lie under: names that resolve only inside a
 * network — RFC 6761 (`localhost`, `invalid`), RFC 6762 (`local`), RFC 8375 (`home.arpa`),
 * RFC 7686 (`onion`), RFC 9476 (`alt`), ICANN's `internal` (2024) and the private-use names ICANN
 * will not delegate for their collisions (`home`, `corp`, `lan`, `intranet`, `mail`). A split-horizon
 * resolver would answer them with internal addresses, which ALIAS would then publish to the world.
 */
export const ALIAS_SPECIAL_USE = ['localhost', 'invalid', 'local', 'home.arpa', 'onion', 'alt', 'internal', 'home', 'corp', 'lan', 'intranet', 'mail'];

/** Why an ALIAS may not point at `target` (absolute, no trailing dot), or null. `deny`: ALIAS_DENY's suffixes. */
export function aliasTargetRefusal(target: string, deny: readonly string[] = []): string | null {
  const name = target.toLowerCase().replace(/\.$/, '');
  if (!name.includes('.')) return `${name} is a single-label name, which only a local resolver answers: an ALIAS target must be a public name`;
  const under = (suffix: string) => name === suffix || name.endsWith(`.${suffix}`);
  const special = ALIAS_SPECIAL_USE.find(under);
  if (special) return `${name} is under .${special}, a name that resolves only inside a network: an ALIAS target must be a public name (its addresses are published to everyone)`;
  const denied = deny.find(under);
  if (denied) return `${name} is under ${denied}, which this service does not allow as an ALIAS target (ALIAS_DENY)`;
  return null;
}
