/** The `domains` repo of the Store interface (see repos.ts), over kysely for SQLite and PostgreSQL alike. */
import { count, escapeLike, like, pageTotal } from '../paging';
import { sql } from 'kysely';
import { Q, bool, domainRow, type RepoContext } from '../repo-kit';
import type { DomainRow, NewRow, Repos } from '../../types';

export function domainsRepo({ db, dialect, zones, p, firstDomain }: RepoContext): Repos['domains'] {
  return {
    insert: async (row) => {
      zones?.clear();
      return domainRow(
        await db
          .insertInto('domains')
          .values({
            ...row,
            dnssec_enabled: row.dnssec_enabled ? 1 : 0,
            delegated: row.delegated ? 1 : 0,
            delegation_checked: row.delegation_checked ? 1 : 0,
            primaries: row.primaries?.length ? JSON.stringify(row.primaries) : null,
          })
          .returningAll()
          .executeTakeFirstOrThrow(),
      );
    },
    byName: async (name) => {
      const known = zones?.get(name);
      if (known) return { ...known };
      const zone = await firstDomain(p.first(Q.domainByName, [name]));
      if (zone) zones?.set(name, { ...zone });
      return zone;
    },
    byId: (id) => firstDomain(p.first(Q.domainById, [id])),
    page: async (userId, w, search, only) => {
      // Their own zones and their teams' (a team zone's user_id only says who created it).
      let q = db
        .selectFrom('domains')
        .where((eb) => eb.or([eb.and([eb('team_id', 'is', null), eb('user_id', '=', userId)]), eb('team_id', 'in', eb.selectFrom('team_members').select('team_id').where('user_id', '=', userId))]));
      if (search) q = q.where(like('name', `%${escapeLike(search)}%`));
      if (only) q = only.length > 0 ? q.where('name', 'in', [...only]) : q.where(sql<boolean>`1 = 0`);
      const rows = await q.selectAll().orderBy('name').limit(w.limit).offset(w.offset).execute();
      const total = await pageTotal(rows.length, w, () => count(q.select((e) => e.fn.countAll<number>().as('n')).executeTakeFirst()));
      return { rows: rows.map(domainRow), total };
    },
    acrossAccounts: async (w, search) => {
      let q = db.selectFrom('domains as d').innerJoin('users as u', 'u.id', 'd.user_id').leftJoin('teams as t', 't.id', 'd.team_id');
      if (search) {
        const pattern = `%${escapeLike(search)}%`;
        q = q.where((eb) => eb.or([like('d.name', pattern), like('u.username', pattern), like('t.name', pattern)]));
      }
      const rows = await q.selectAll('d').select(['u.username', 't.name as team_name']).orderBy('d.name').limit(w.limit).offset(w.offset).execute();
      const total = await pageTotal(rows.length, w, () => count(q.select((e) => e.fn.countAll<number>().as('n')).executeTakeFirst()));
      return { rows: rows.map((r) => ({ ...domainRow(r), username: r.username, team_name: r.team_name ?? null, record_count: Number(r.record_count) })), total };
    },
    all: async () => (await db.selectFrom('domains').selectAll().orderBy('name').execute()).map(domainRow),
    serials: async (afterId, limit) =>
      (await db.selectFrom('domains').select(['id', 'name', 'serial_number', 'created_at']).where('id', '>', afterId).orderBy('id').limit(limit).execute()).map((r) => ({
        ...r,
        serial_number: Number(r.serial_number),
      })),
    related: async (name) => {
      const labels = name.split('.');
      const ancestors = labels.slice(1).map((_, i) => labels.slice(i + 1).join('.'));
      const q = db
        .selectFrom('domains')
        .selectAll()
        .where((eb) => eb.or([like('name', `%.${escapeLike(name)}`), ...(ancestors.length ? [eb('name', 'in', ancestors)] : [])]));
      return (await q.execute()).map(domainRow);
    },
    lock: async (zone) => {
      if (dialect === 'sqlite') return zone;
      const r = await p.first(Q.domainLock, [zone.id]);
      if (!r) throw new Error(`no domain with id ${zone.id}`);
      return domainRow(r);
    },
    update: (async (zone: DomainRow, patch: Partial<NewRow<DomainRow>>, guard?: { recordsAtMost: number }) => {
      // The row as the caller holds it with the patch on it: no RETURNING (on SQLite it costs
      // more than the update), and no column a trigger keeps is part of a DomainRow.
      const updated: Record<string, unknown> = { ...zone };
      const columns: string[] = [];
      const args: unknown[] = [];
      for (const [column, value] of Object.entries(patch)) {
        if (value === undefined) continue;
        updated[column] = value;
        columns.push(column);
        args.push(column === 'dnssec_enabled' || column === 'delegated' || column === 'delegation_checked' ? bool(value as boolean) : column === 'primaries' ? JSON.stringify(value) : value);
      }
      args.push(zone.id);
      if (guard) args.push(guard.recordsAtMost);
      // A zone read by name before is what it was plus this patch (a new name: read it again).
      const renamed = columns.includes('name');
      if (renamed) zones?.clear();
      else zones?.delete(zone.name);
      if ((await p.run(Q.domainUpdate, args, guard ? `${columns.join(',')};guard` : columns.join(','))) === 1) {
        if (!renamed) zones?.set(zone.name, { ...(updated as unknown as DomainRow) });
        return updated as unknown as DomainRow;
      }
      if (guard && (await firstDomain(p.first(Q.domainById, [zone.id])))) return null;
      throw new Error(`no domain with id ${zone.id}`);
    }) as Repos['domains']['update'],
    setOwner: async (zone, owner) => {
      zones?.delete(zone.name);
      await db.updateTable('domains').set(owner).where('id', '=', zone.id).execute();
      return { ...zone, ...owner };
    },
    delete: async (id) => {
      zones?.clear();
      return Number((await db.deleteFrom('domains').where('id', '=', id).executeTakeFirst()).numDeletedRows) > 0;
    },
  };
}
