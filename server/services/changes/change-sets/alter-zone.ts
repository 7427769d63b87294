/**
 * What becomes of a zone's row outside any change set: it moves to another owner, or it is deleted
 * (archived first, unless discarded); and the flag of the delegation check, which nothing served
 * depends on. DNS and the other nodes hear of a move or a deletion after the commit.
 */
import type { DomainRow, ServiceRepos } from '../../../store/types';
import { publishZoneChange } from '../zone-messages';
import type { ChangeSetDeps, ZoneAlteration } from './types';

/**
 * `locate` finds the zone, the row is locked, `decide` judges the locked row and says what
 * becomes of it.
 */
export async function alterZone<T>(
  { store, events }: ChangeSetDeps,
  locate: (tx: ServiceRepos) => Promise<DomainRow>,
  decide: (tx: ServiceRepos, zone: DomainRow) => Promise<ZoneAlteration<T>>,
): Promise<{ zone: DomainRow; result: T; deleted: boolean }> {
  const out = await store.transaction(async (tx) => {
    const zone = await tx.domains.lock(await locate(tx));
    const what = await decide(tx, zone);
    if ('owner' in what) {
      const moved = await tx.domains.setOwner(zone, what.owner);
      await publishZoneChange(tx, events, { kind: 'zone-changed', domain: moved, names: [], keys: false });
      return { zone: moved, result: what.result, deleted: false };
    }
    if (!('discard' in what.remove)) {
      const now = new Date();
      const row = await tx.deletedZones.archive(zone, {
        deleted_at: now.toISOString(),
        deleted_by: what.remove.deletedBy,
        expires_at: new Date(now.getTime() + what.remove.days * 86_400_000).toISOString(),
      });
      await what.remove.archived(tx, row);
    }
    await tx.domains.delete(zone.id);
    await tx.catalog.bump(new Date());
    await publishZoneChange(tx, events, { kind: 'zone-deleted', domain: zone });
    return { zone, result: what.result, deleted: true };
  });
  events.emit(out.deleted ? { kind: 'zone-deleted', domain: out.zone } : { kind: 'zone-changed', domain: out.zone, names: [], keys: false });
  return out;
}

/**
 * Records what the delegation check found (`delegated`, and that a check has answered): flags of
 * the zone's row that nothing served depends on, so no serial and no history; unchanged rows are
 * not written. Only a change of `delegated` itself is told (webhooks), not the first answer that
 * confirms what a new zone already said.
 */
export async function markDelegated({ store, hooks }: ChangeSetDeps, domainId: number, delegated: boolean): Promise<void> {
  const changed = await store.transaction(async (tx) => {
    const zone = await tx.domains.byId(domainId);
    if (!zone || (zone.delegated === delegated && zone.delegation_checked)) return null;
    const moved = zone.delegated !== delegated;
    return { zone: await tx.domains.update(zone, { delegated, delegation_checked: true }), moved };
  });
  if (changed?.moved) hooks?.delegated?.(changed.zone, delegated);
}

/**
 * A secondary refreshed without a change (its primary's serial is the one it holds): only when it
 * expires moves on. Not a change set (nothing served changes but the expiry), but every node's DNS
 * reads the row again, so that none of them stops answering the zone at the old expiry.
 */
export async function markRefreshed({ store, events }: ChangeSetDeps, domainId: number, expiresAt: string): Promise<DomainRow | null> {
  const zone = await store.transaction(async (tx) => {
    const found = await tx.domains.byId(domainId);
    if (!found || found.kind !== 'secondary' || found.expires_at === expiresAt) return null;
    const updated = await tx.domains.update(await tx.domains.lock(found), { expires_at: expiresAt });
    await publishZoneChange(tx, events, { kind: 'zone-changed', domain: updated, names: [], keys: false });
    return updated;
  });
  if (zone) events.emit({ kind: 'zone-changed', domain: zone, names: [], keys: false });
  return zone;
}
