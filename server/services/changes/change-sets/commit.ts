/**
 * The commit of an open change set, inside its transaction: the draft turned into writes, judged
 * (scope, role, the zone's rules), the records written in slices, the serial bumped once under the
 * record cap, the keys changed, and the change set appended to the zone's history.
 */
import { Forbidden } from '../../../core/errors';
import type { Slicer } from '../../../core/pause';
import { nextSerial } from '../../../core/soa';
import type { DomainRow, RecordRow, Repos } from '../../../store/types';
import { readPolicy } from '../../../core/dnssec-policy';
import { firstKeys } from '../../dnssec/key-setup';
import { newKey } from '../../dnssec/key-material';
import { crudBlame, historyEntries, type Writes } from '../zone-draft';
import { judgePools, judgeRole, judgeScope } from './guards';
import { SETTING_FIELDS, type ChangeSet, type Committed, type KeyStep, type Settings, type WriteOptions } from './types';
import type { ZoneUpdate } from './zone-update';

/** Rows written per statement batch between two yield points: a few tens of milliseconds of SQLite. */
const WRITE_SLICE = 256;

type SettingChanges = Record<string, [unknown, unknown]>;

/** The settings the edit sets to another value than the zone's, as [before, after]. */
function settingChanges(zone: DomainRow, edited: Partial<Settings>): SettingChanges {
  const out: SettingChanges = {};
  for (const f of SETTING_FIELDS) {
    const v = edited[f];
    if (v !== undefined && v !== zone[f]) out[f] = [zone[f], v];
  }
  return out;
}

/** Forbidden naming the zone's size: MAX_RECORDS_PER_ZONE. */
function tooMany(zone: DomainRow, before: number, growth: number, max: number): Forbidden {
  const now = before >= max ? `already holds ${before} records` : `would hold ${before + growth} records`;
  return new Forbidden(`${zone.name} ${now}; ${max} is the most one zone may have (MAX_RECORDS_PER_ZONE)`);
}

/**
 * Commits `u`: judges and writes it, or answers a change set with id null when it changes nothing.
 * `tx` is the transaction's writer (the handle shows writers only its `ServiceRepos` face).
 */
export async function commitUpdate(tx: Repos, u: ZoneUpdate, opts: WriteOptions, maxRecords: number): Promise<Committed> {
  const { zone } = u;
  const at = u.now.toISOString();
  const w = await u.draft.writes(at);
  const settings = settingChanges(zone, u.settings);
  // Scope first: a credential that may not write here learns nothing from the zone's rules.
  judgeScope(u.actor.scope, zone, { ...w, settings }, u);
  await judgeRole(tx, zone, u.role, { ...w, settings }, u);
  judgePools(zone, { ...w, settings }, opts.source);
  // A transfer's content is its primary's to judge: a secondary serves it as it came.
  if (opts.source !== 'transfer') await u.draft.validate(u.blame ?? crudBlame);
  if (u.keys) {
    const before = (await tx.dnssecKeys.publicKeys([zone.id])).map((k) => `${k.role.toUpperCase()} ${k.key_tag}`);
    settings.dnssec_keys = [before.join(', '), u.keys.summary];
  }
  const base = { serial_before: zone.serial_number, created_at: at, source: opts.source, actor: { username: u.actor.username, credential: u.actor.credential }, comment: opts.comment ?? '' };
  if (w.added.length === 0 && w.removed.length === 0 && Object.keys(settings).length === 0 && !u.touch) {
    return { zone, change: { id: null, ...base, serial_after: zone.serial_number, added: [], removed: [], settings }, names: [], keys: false, inserted: [] };
  }
  const growth = w.inserts.length - w.deletes.length;
  // The serial bump checks the limit for every change that grows the zone; a bulk one (a PATCH,
  // an import) reads the count first, so that a zone too full for it is spared its writes.
  if (growth > 1) {
    const before = await tx.records.zoneCount(zone.id);
    if (before + growth > maxRecords) throw tooMany(zone, before, growth, maxRecords);
  }
  const inserted = await writeRecords(tx, w, u.slice);
  const updated = await bumpZone(tx, u, settings, { growth, maxRecords, at });
  const row = await tx.changes.insert(
    {
      domain_id: zone.id,
      serial_before: zone.serial_number,
      serial_after: updated.serial_number,
      created_at: at,
      source: opts.source,
      actor_username: u.actor.username,
      actor_credential: u.actor.credential,
      comment: opts.comment ?? '',
      settings: JSON.stringify(settings),
      added_count: w.added.length,
      removed_count: w.removed.length,
    },
    historyEntries(w),
  );
  if (opts.batch) await tx.changes.setBatch(row.id, opts.batch);
  const change: ChangeSet = { ...base, ...(opts.batch ? { batch: opts.batch } : {}), id: row.id, serial_after: updated.serial_number, added: w.added, removed: w.removed, settings };
  return { zone: updated, change, names: w.names, keys: settings.dnssec_enabled !== undefined || u.keys !== undefined, inserted };
}

/**
 * The record writes, deletes first (so that a CNAME may replace other data, and content move,
 * within one change), in slices each short enough that the event loop turns between them (SQLite
 * runs each statement on this thread); a client gone meanwhile stops it, and the transaction rolls back.
 */
async function writeRecords(tx: Repos, w: Writes, slice: Slicer): Promise<RecordRow[]> {
  for (let i = 0; i < w.deletes.length; i += WRITE_SLICE) {
    await slice();
    await tx.records.deleteMany(w.deletes.slice(i, i + WRITE_SLICE));
  }
  for (const u of w.updates) {
    await slice();
    await tx.records.update(u.id, u.patch);
  }
  const inserted: RecordRow[] = [];
  for (let i = 0; i < w.inserts.length; i += WRITE_SLICE) {
    await slice();
    inserted.push(...(await tx.records.insertMany(w.inserts.slice(i, i + WRITE_SLICE))));
  }
  await slice();
  return inserted;
}

/** One rollover step on the keys, and the zone's rollover state after it, in the change set's transaction. */
async function keyStep(tx: Repos, zone: DomainRow, step: KeyStep, at: string): Promise<DomainRow> {
  const made: number[] = [];
  for (const k of step.make) made.push((await tx.dnssecKeys.insert(newKey(zone.id, zone.name, at, k.algorithm, k.role, k.flags))).id);
  for (const c of step.change) await tx.dnssecKeys.update(c.id, { ...c.flags, state_at: at });
  for (const id of step.drop) await tx.dnssecKeys.delete(id);
  return (await tx.domains.update(zone, { dnssec_rollover: step.rollover(made) }))!;
}

/**
 * The zone row moved on: the next serial and the changed settings, only while the zone holds at
 * most MAX_RECORDS_PER_ZONE records when the change grows it (else refused whole: the transaction
 * rolls back); then the keys DNSSEC on, off or a rollover step asks for.
 */
async function bumpZone(tx: Repos, u: ZoneUpdate, settings: SettingChanges, how: { growth: number; maxRecords: number; at: string }): Promise<DomainRow> {
  const { zone } = u;
  const patch: Partial<Settings> = {};
  for (const f of SETTING_FIELDS) if (settings[f]) (patch as Record<string, unknown>)[f] = settings[f]![1];
  // The DNS server publishes the CDS/CDNSKEY delete form for a while after DNSSEC goes off (RFC 8078 §4).
  const disabled = settings.dnssec_enabled ? { dnssec_disabled_at: patch.dnssec_enabled ? null : how.at } : {};
  // A transfer serves its primary's SOA as it came; every other change takes the next serial.
  const zonePatch = { ...patch, ...disabled, ...(u.transfer ?? { serial_number: nextSerial(zone.serial_number, u.now) }), updated_at: how.at };
  const updated = how.growth > 0 ? await tx.domains.update(zone, zonePatch, { recordsAtMost: how.maxRecords }) : await tx.domains.update(zone, zonePatch);
  if (!updated) throw tooMany(zone, (await tx.records.zoneCount(zone.id)) - how.growth, how.growth, how.maxRecords);
  // DNSSEC off removes every key and ends any rollover; on makes new ones by the policy (an old key is never brought back).
  if (settings.dnssec_enabled) {
    await tx.dnssecKeys.deleteByDomain(zone.id);
    if (updated.dnssec_enabled) for (const k of firstKeys(readPolicy(updated.dnssec_policy))) await tx.dnssecKeys.insert(newKey(zone.id, zone.name, how.at, k.algorithm, k.role, k.flags));
    if (updated.dnssec_rollover) return (await tx.domains.update(updated, { dnssec_rollover: null }))!;
  }
  if (u.keys && updated.dnssec_enabled) return keyStep(tx, updated, u.keys, how.at);
  return updated;
}
