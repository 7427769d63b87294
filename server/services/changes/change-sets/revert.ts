/**
 * A revert: the inverse of a change set applied as a new one (source `revert`). Refused with a 409
 * naming them when records or settings it touched have changed since, and for what cannot be
 * undone (the zone's creation, a key rollover).
 */
import { APEX } from '../../../core/domain-name';
import { Conflict, Forbidden } from '../../../core/errors';
import { zoneRefusal } from '../../../core/scope';
import type { Entry, RecordData, ZoneDraft } from '../zone-draft';
import { changeOf, type ChangeSetView } from './history';
import type { Edit, Settings, WriteOptions } from './types';

/** An RRset's key in a conflict's fields: `@ MX`, `www A`. */
const key = (r: { name: string; record_type: string }) => `${r.name === APEX ? '@' : r.name} ${r.record_type}`;

/** The edit that reverts change `id` of the zone the change set is open on. */
export function revertEdit(id: number, opts: Omit<WriteOptions, 'source'>) {
  return async (edit: Edit): Promise<void> => {
    const { draft, zone, tx, settings } = edit;
    const cs = await changeOf(tx, zone, id);
    // A credential that may not change settings is told so before whether the revert would conflict.
    const touched = Object.keys(cs.settings);
    const why = touched.length > 0 && opts.actor.scope ? zoneRefusal(opts.actor.scope, zone.name, `the zone's settings (${touched.join(', ')})`) : null;
    if (why) throw new Forbidden(why);
    if (cs.serial_before === 0) throw new Conflict(`change ${id} created the zone; delete the zone instead`);
    if (cs.settings.dnssec_keys) throw new Conflict(`change ${id} was a DNSSEC key rollover, which cannot be reverted; use npm run cli -- dnssec rollover`);
    await draft.load(new Set([...cs.added, ...cs.removed].map((r) => r.name)));
    const conflicts = await conflictsOf(edit, cs);
    if (conflicts.size > 0) throw new Conflict(`change ${id} cannot be reverted: ${[...conflicts.keys()].join(', ')} changed since`, Object.fromEntries(conflicts));
    // The apex NS set is zonedeck's (its TTL follows the SOA's): a change set that moved it is undone as zonedeck made it.
    if ([...cs.added, ...cs.removed].some((r) => r.name === APEX && r.record_type === 'NS')) draft.system = true;
    await putInverse(draft, cs, edit.slice);
    for (const [field, [before]] of Object.entries(cs.settings)) (settings as Record<string, unknown>)[field] = before;
  };
}

/** What has changed since the change set, by RRset (or setting), every reason of each. */
async function conflictsOf({ draft, zone, slice }: Edit, cs: ChangeSetView): Promise<Map<string, string>> {
  const conflicts = new Map<string, string>();
  const note = (k: string, why: string) => conflicts.set(k, conflicts.has(k) ? `${conflicts.get(k)}; ${why}` : why);
  const addedContent = new Set(cs.added.map((r) => `${key(r)} ${r.content}`));
  const state = (disabled: boolean | undefined) => (disabled ? ' (disabled)' : '');
  // Each RRset as it is now, by content (a set holds each content once), read once per RRset.
  const present = new Map<string, Map<string, Entry>>();
  const entry = (r: RecordData) => {
    let set = present.get(key(r));
    if (!set) present.set(key(r), (set = new Map(draft.rrset(r.name, r.record_type).map((e) => [e.content, e]))));
    return set.get(r.content);
  };
  for (const r of cs.added) {
    await slice();
    const e = entry(r);
    if (!e || e.ttl !== r.ttl || !e.disabled !== !r.disabled) note(key(r), `${r.content} (TTL ${r.ttl})${state(r.disabled)} is no longer there as change ${cs.id} left it`);
  }
  for (const r of cs.removed) {
    await slice();
    if (addedContent.has(`${key(r)} ${r.content}`)) continue;
    if (entry(r)) note(key(r), `${r.content} has been added again since change ${cs.id}`);
  }
  for (const [field, [, after]] of Object.entries(cs.settings)) {
    if (zone[field as keyof Settings] !== after) note(field, `is ${String(zone[field as keyof Settings])} now, not ${String(after)} as change ${cs.id} left it`);
  }
  return conflicts;
}

/**
 * The inverse, RRset by RRset: what it added goes, what it removed comes back. Grouped once, not
 * filtered per RRset: a template's change set holds as many RRsets as records.
 */
async function putInverse(draft: ZoneDraft, cs: ChangeSetView, slice: Edit['slice']): Promise<void> {
  const sets = new Map<string, { name: string; type: string; added: Set<string>; restored: RecordData[] }>();
  const setOf = (r: RecordData) => {
    let set = sets.get(key(r));
    if (!set) sets.set(key(r), (set = { name: r.name, type: r.record_type, added: new Set(), restored: [] }));
    return set;
  };
  for (const r of cs.added) setOf(r).added.add(r.content);
  for (const r of cs.removed) setOf(r).restored.push(r);
  for (const { name, type, added, restored } of sets.values()) {
    await slice();
    const kept = draft.rrset(name, type).filter((e) => !added.has(e.content));
    const ttl = restored[0]?.ttl ?? kept[0]?.ttl ?? 0;
    draft.put(name, type, [...kept, ...restored.map((r) => ({ content: r.content, ttl: r.ttl, disabled: r.disabled }))], ttl);
  }
}
