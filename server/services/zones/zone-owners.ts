/**
 * An owner's acts on a whole zone, outside any change set of its records: the move between a
 * user and a team, and the deletion (the zone archived for HISTORY_DAYS, deleted-zones.ts). Each
 * is judged on the zone's row locked in the transaction that makes it.
 */
import { Conflict, Forbidden, PreconditionFailed } from '../../core/errors';
import { zoneRefusal, type Scope } from '../../core/scope';
import type { DomainRow, ReadRepos } from '../../store/types';
import type { ChangeSets } from '../changes/change-sets';
import type { Audit, AuditActor } from '../identity/audit';
import { teamFor, teamOwnerRefusal } from './access';
import { DEFAULT_HISTORY_DAYS, deletedDetail } from './deleted-zones';
import { ownedZone, type ZoneRef } from './place';
import { foreignNeighbour, reservedFor, type ZoneRules } from './zone-rules';

export interface OwnerDeps {
  store: ReadRepos;
  changes: ChangeSets;
  rules: ZoneRules;
  audit: Audit;
  /** HISTORY_DAYS: how long a deleted zone stays restorable. */
  historyDays?: number;
}

/**
 * Moves a zone to a team (`team`), or back to the user alone (null), with its records and
 * history: an owner's act on both sides: the zone's owner (the user, or an
 * owner of its team) who is also an owner of the team it moves to. The DNS server hears of
 * it like of any change, so a member's key transfers it from then on.
 */
export async function moveZone(deps: OwnerDeps, userId: number, name: ZoneRef, team: string | null, scope?: Scope): Promise<{ zone: DomainRow; from: string | null }> {
  const { zone, result: from } = await deps.changes.alterZone(
    (tx) => ownedZone(deps.store, userId, name, tx),
    async (tx, z) => {
      const why = (scope ? zoneRefusal(scope, z.name, 'move the zone') : null) ?? (await teamOwnerRefusal(tx, userId, z, 'move its zones'));
      if (why) throw new Forbidden(why);
      const from = z.team_id != null ? ((await tx.teams.byId(z.team_id))?.name ?? null) : null;
      const to = team === null ? null : await teamFor(tx, userId, team, 'owner', 'move zones into it');
      const owner = { user_id: to ? z.user_id : userId, team_id: to?.id ?? null };
      // The creation's nesting rule for the new owner, serialized with creations as they are.
      await tx.quotas.lock('zones', 0);
      const foreign = await foreignNeighbour(tx, z.name, owner.user_id, owner.team_id);
      if (foreign) {
        const whose = foreign.zone.team_id == null && foreign.zone.user_id === userId ? 'is yours alone' : 'another account manages';
        throw new Conflict(`${z.name} ${foreign.how} ${foreign.zone.name}, which ${whose}: moved to ${to ? `team ${to.name}` : 'you alone'}, the two would be nested across accounts`, {
          team: `the domain ${foreign.how} a domain of another owner`,
        });
      }
      // A zone of the service's own domains stays an administrator's alone, moved as it was created.
      const reservedWhy = await reservedFor(deps.rules, tx, z.name, owner.user_id, owner.team_id);
      if (reservedWhy) throw new Conflict(`${z.name} ${reservedWhy}`, { team: reservedWhy });
      return { owner, result: from };
    },
  );
  return { zone, from };
}

/**
 * Deletes a zone; `ifMatch` guards it like any write, and the credential's scope is judged on
 * the row it locked. The zone is archived in the same transaction, with its
 * records, keys and history, for HISTORY_DAYS (deleted-zones.ts restores it), and the deletion
 * is an audit event of `how.actor` (absent: the admin CLI, as the zone's owner). `how.discard`:
 * no archive and no event (a creation undone because it failed half way).
 */
export async function removeZone(deps: OwnerDeps, userId: number, name: ZoneRef, ifMatch?: number | '*', scope?: Scope, how: { actor?: AuditActor; discard?: boolean } = {}): Promise<void> {
  await deps.changes.alterZone(
    (tx) => ownedZone(deps.store, userId, name, tx),
    async (tx, z) => {
      const why = (scope ? zoneRefusal(scope, z.name, 'delete the zone') : null) ?? (await teamOwnerRefusal(tx, userId, z, 'delete its zones'));
      if (why) throw new Forbidden(why);
      if (ifMatch !== undefined && ifMatch !== '*' && ifMatch !== z.serial_number) {
        throw new PreconditionFailed(`${z.name} has changed: its serial is ${z.serial_number}, not ${ifMatch}`, { 'If-Match': `the zone is at serial ${z.serial_number}` });
      }
      if (how.discard) return { remove: { discard: true }, result: undefined };
      const owner = { id: z.user_id, username: (await tx.users.byId(z.user_id))?.username ?? '' };
      const actor = how.actor ?? { username: owner.username, credential: 'cli' };
      const team = z.team_id != null ? await tx.teams.byId(z.team_id) : undefined;
      return {
        remove: {
          deletedBy: actor.username,
          days: deps.historyDays ?? DEFAULT_HISTORY_DAYS,
          // The zone's user is its subject: they read the event even when another deleted it (a team owner, the CLI).
          archived: (tx, archived) =>
            deps.audit.record({ kind: 'zone-deleted', actor, subject: owner, ...(team ? { team: { id: team.id, name: team.name } } : {}), detail: deletedDetail(archived) }, tx),
        },
        result: undefined,
      };
    },
  );
}
