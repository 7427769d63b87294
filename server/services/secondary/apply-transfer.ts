/**
 * A transfer applied to a secondary zone as ONE change set (source `transfer`, the primary as the
 * actor), so that History shows what changed upstream and a transfer lands whole or not at all.
 * The zone takes its primary's SOA (serial, names, timers) as it came; the primary's content is
 * served as it is (its apex NS set included), without the rules zonedeck holds its own zones to:
 * the primary is the authority on its zone.
 */
import { APEX } from '../../core/domain-name';
import type { DomainRow } from '../../store/types';
import type { Applied, ChangeSets, Edit, WriteOptions } from '../changes/change-sets';
import type { Pulled, PulledRecord, PulledSoa } from './pull-types';

/** An incremental transfer that does not fit the zone as held (a record to remove is not there): the whole zone is asked for instead. */
export class IxfrMismatch extends Error {}

const key = (name: string, type: string) => `${name}\u0000${type}`;

/** The write options of a transfer from `primary` (`host:port`). */
export function transferWrite(primary: string, comment: string): WriteOptions {
  return { source: 'transfer', actor: { username: primary, credential: `transfer:${primary}` }, comment };
}

/** The zone row's SOA as the change set leaves it: the primary's. */
function takeSoa(edit: Edit, soa: PulledSoa, expiresAt: string): void {
  Object.assign(edit.settings, { refresh_interval: soa.refresh, retry_interval: soa.retry, expire_interval: soa.expire, minimum_ttl: soa.minimum });
  edit.transfer = { serial_number: soa.serial, soa_mname: soa.mname, soa_rname: soa.rname, expires_at: expiresAt };
  // The serial moves even when no record does (a primary that only bumped its serial).
  edit.touch = true;
  edit.draft.system = true;
  edit.draft.transfer = true;
}

/** Replaces every record of the zone with the transfer's. */
async function applyFull(edit: Edit, records: readonly PulledRecord[]): Promise<void> {
  const { draft } = edit;
  const sets = new Map<string, { name: string; type: string; ttl: number; contents: string[] }>();
  for (const r of records) {
    const k = key(r.name, r.record_type);
    const set = sets.get(k);
    // One TTL per RRset (RFC 2181 §5.2): a primary that disagrees with itself gets the lowest.
    if (set) {
      set.contents.push(r.content);
      set.ttl = Math.min(set.ttl, r.ttl);
    } else sets.set(k, { name: r.name, type: r.record_type, ttl: r.ttl, contents: [r.content] });
  }
  await draft.loadAll();
  for (const name of draft.names()) {
    await edit.slice();
    for (const type of draft.types(name)) if (!sets.has(key(name, type))) draft.put(name, type, [], 0);
  }
  for (const set of sets.values()) {
    await edit.slice();
    draft.put(
      set.name,
      set.type,
      set.contents.map((content) => ({ content, ttl: set.ttl })),
      set.ttl,
    );
  }
}

/** Applies an IXFR's steps in order to the records they touch; IxfrMismatch when one does not fit. */
async function applySteps(edit: Edit, steps: Extract<Pulled, { kind: 'incremental' }>['steps']): Promise<void> {
  const { draft } = edit;
  const names = new Set<string>();
  for (const s of steps) for (const r of [...s.removed, ...s.added]) names.add(r.name);
  await draft.load(names);
  for (const step of steps) {
    for (const r of step.removed) {
      const set = draft.rrset(r.name, r.record_type);
      const left = set.filter((e) => e.content !== r.content);
      if (left.length === set.length) throw new IxfrMismatch(`the change to serial ${step.to} removes ${r.name === APEX ? '@' : r.name} ${r.record_type} ${r.content}, which the zone does not hold`);
      draft.put(r.name, r.record_type, left, set[0]!.ttl);
      await edit.slice();
    }
    for (const r of step.added) {
      const set = draft.rrset(r.name, r.record_type);
      draft.put(r.name, r.record_type, [...set, { content: r.content, ttl: r.ttl }], r.ttl);
      await edit.slice();
    }
  }
}

/** Applies a transfer that brought content (whole, or changes) to the secondary `zone`, as one change set. */
export function applyTransfer(changes: ChangeSets, zone: Pick<DomainRow, 'id' | 'name'>, primary: string, pulled: Exclude<Pulled, { kind: 'current' }>, expiresAt: string): Promise<Applied<void>> {
  const how = pulled.kind === 'full' ? 'AXFR' : `IXFR (${pulled.steps.length} ${pulled.steps.length === 1 ? 'step' : 'steps'})`;
  const comment = `serial ${pulled.soa.serial} transferred from ${primary} by ${how}`;
  return changes.update(zone, transferWrite(primary, comment), async (u) => {
    takeSoa(u, pulled.soa, expiresAt);
    if (pulled.kind === 'full') await applyFull(u, pulled.records);
    else await applySteps(u, pulled.steps);
  });
}
