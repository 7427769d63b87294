/**
 * Who may make this change, judged on the zone row the change set locked: the serial the writer
 * saw (If-Match), the credential's scope and the member's role on every RRset the change adds or
 * removes, and on any setting, key or re-signing. Forbidden (or 412), and nothing applied, otherwise.
 */
import { Conflict, Forbidden, PreconditionFailed } from '../../../core/errors';
import { poolAt, poolsText, readPools } from '../../../core/pools';
import type { Role } from '../../../core/roles';
import { isRestricted, recordRefusal, zoneRefusal, type Scope } from '../../../core/scope';
import type { DomainRow, ReadRepos } from '../../../store/types';
import { roleRecordRefusal, roleZoneRefusal } from '../../zones/access';
import type { RecordData } from '../zone-draft';
import type { Edit } from './types';

/** What a change touches, as the guards judge it. */
export interface Touched {
  added: readonly RecordData[];
  removed: readonly RecordData[];
  /** Changed settings by field (and `dnssec_keys` for a key step). */
  settings: Record<string, unknown>;
}

/** 412 unless the writer saw the zone at the serial it has now (`*` or absent: any). */
export function checkIfMatch(zone: DomainRow, ifMatch: number | '*' | undefined): void {
  if (ifMatch === undefined || ifMatch === '*' || ifMatch === zone.serial_number) return;
  throw new PreconditionFailed(`${zone.name} has changed: its serial is ${zone.serial_number}, not ${ifMatch}; reload it and try again`, {
    'If-Match': `the zone is at serial ${zone.serial_number}`,
  });
}

/** The zone-wide things a change touches (settings, keys, signatures), in words; null when none. */
function zoneWide(t: Touched, edit: Pick<Edit, 'keys' | 'touch'>): string | null {
  const touched = [...Object.keys(t.settings), ...(edit.keys ? ['dnssec_keys'] : [])];
  return touched.length > 0 || edit.touch ? `the zone's settings (${touched.join(', ') || 'its signatures'})` : null;
}

/** Each RRset a change adds to or removes from, once. */
function* rrsetsOf(t: Touched): Generator<RecordData> {
  const seen = new Set<string>();
  for (const list of [t.added, t.removed]) {
    for (const r of list) {
      const k = `${r.name} ${r.record_type}`;
      if (seen.has(k)) continue;
      seen.add(k);
      yield r;
    }
  }
}

/**
 * The credential's scope on this change: every RRset it adds or removes (a delegation or DNAME
 * needs the subtree below it too), and no setting, key or re-signing for a credential limited to
 * names or types. First, so that a credential that may not write here learns nothing of the zone's rules.
 */
export function judgeScope(scope: Scope | undefined, zone: DomainRow, t: Touched, edit: Pick<Edit, 'keys' | 'touch'>): void {
  if (!scope || !isRestricted(scope)) return;
  const wide = zoneWide(t, edit);
  const why = wide && zoneRefusal(scope, zone.name, wide);
  if (why) throw new Forbidden(why);
  for (const r of rrsetsOf(t)) {
    const refused = recordRefusal(scope, zone.name, r.name, r.record_type);
    if (refused) throw new Forbidden(refused);
  }
}

/** The member's role on this change: a viewer changes nothing, an editor records only. */
export async function judgeRole(repos: ReadRepos, zone: DomainRow, role: Role, t: Touched, edit: Pick<Edit, 'keys' | 'touch'>): Promise<void> {
  if (role !== 'editor' && role !== 'viewer') return;
  const wide = zoneWide(t, edit);
  const why = wide && (await roleZoneRefusal(repos, zone, role, wide));
  if (why) throw new Forbidden(why);
  for (const r of rrsetsOf(t)) {
    const refused = await roleRecordRefusal(repos, zone, role, r.name, r.record_type);
    if (refused) throw new Forbidden(refused);
  }
}

/**
 * A pool's A/AAAA set is what its health checks make it: only the health checks (source `health`)
 * and a change of that pool itself (its definition in the same change set, or a revert of one)
 * may change it. Anything else that would is refused, naming the pool, and nothing is applied.
 */
export function judgePools(zone: DomainRow, t: Touched, source: string): void {
  if (source === 'health') return;
  const before = readPools(zone.pools);
  const change = t.settings.pools as [string | null, string | null] | undefined;
  const after = change ? readPools(change[1]) : before;
  for (const r of rrsetsOf(t)) {
    const was = poolAt(before, r.name, r.record_type);
    const is = poolAt(after, r.name, r.record_type);
    if (!was && !is) continue;
    if (change && poolsText(was ? [was] : []) !== poolsText(is ? [is] : [])) continue;
    const fqdn = r.name === '@' ? zone.name : `${r.name}.${zone.name}`;
    const why = `${fqdn} ${r.record_type} is answered by the health-checked pool ${(was ?? is)!.name}: change the pool instead`;
    throw new Conflict(why, { name: why });
  }
}
