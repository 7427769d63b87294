/**
 * The repos of templates and of searches across zones (migration 0015): one
 * query over the records of every zone a user may read, filtered by name, type and content.
 */
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database } from '../schema';
import type { Dialect } from '../migrate';
import { count, escapeLike, pageTotal } from './paging';
import { domainRow } from './repo-kit';
import type { FoundRecord, RecordSearch, TemplateRepos, TemplateRow, TextMatch } from '../types/across-zones';

const templateRow = ({ owner: _owner, rrsets, ...r }: Selectable<Database['templates']>): TemplateRow => ({ ...r, rrsets: JSON.parse(rrsets) as TemplateRow['rrsets'] });
const ownerKey = (o: { user_id: number; team_id: number | null }) => (o.team_id != null ? `team:${o.team_id}` : `user:${o.user_id}`);

/** A LIKE pattern (or equality) for a match kind. */
function pattern(term: string, match: TextMatch): string {
  return match === 'prefix' ? `${escapeLike(term)}%` : `%${escapeLike(term)}%`;
}

/**
 * The FTS5 query for records whose text holds `term` (one string literal, `"` doubled: no FTS
 * syntax of the caller's reaches the parser), or undefined when the trigram index cannot answer:
 * fewer than 3 characters (no trigram), or a NUL. It finds a superset — it folds case beyond
 * ASCII — so the LIKE of the scan still decides.
 */
export function trigramQuery(term: string): string | undefined {
  if ([...term].length < 3 || term.includes('\0')) return undefined;
  return `"${term.replaceAll('"', '""')}"`;
}

export function createTemplateRepos(db: Kysely<Database>, dialect: Dialect): TemplateRepos {
  /** The zones the user may read: their own, and their teams' (as `domains.page` reads them). */
  const readable = (userId: number) =>
    db
      .selectFrom('domains')
      .select('id')
      .where((eb) => eb.or([eb.and([eb('team_id', 'is', null), eb('user_id', '=', userId)]), eb('team_id', 'in', eb.selectFrom('team_members').select('team_id').where('user_id', '=', userId))]));

  function searchQuery(userId: number | null, s: RecordSearch) {
    // CROSS JOIN keeps records the outer loop on SQLite, and `+r.domain_id` keeps the zone list from
    // becoming a condition on records' own indexes: a content search reads the content index, not every zone's records.
    const joined = db.selectFrom('records as r').crossJoin('domains as d');
    const all = dialect === 'sqlite' ? joined.where(sql<boolean>`d.id = +r.domain_id`) : joined.whereRef('d.id', '=', 'r.domain_id');
    // No user: an administrator's search of every account.
    let q = userId === null ? all : all.where('d.id', 'in', readable(userId));
    if (s.zones) q = s.zones.length > 0 ? q.where('d.name', 'in', [...s.zones]) : q.where(sql<boolean>`1 = 0`);
    if (s.types) q = s.types.length > 0 ? q.where('r.record_type', 'in', [...s.types]) : q.where(sql<boolean>`1 = 0`);
    if (s.name) {
      const fqdn = sql<string>`(case when r.name = '@' then d.name else r.name || '.' || d.name end)`;
      const { term, match } = s.name;
      q = match === 'exact' ? q.where(sql<boolean>`${fqdn} = ${term}`) : q.where(sql<boolean>`${fqdn} like ${pattern(term, match)} escape '\\'`);
      // Substring and prefix: the candidates from the index (migration 0020), then the LIKE above decides.
      if (match !== 'exact') {
        const fts = dialect === 'sqlite' ? trigramQuery(term) : undefined;
        if (fts !== undefined) q = q.where(sql<boolean>`r.id in (select rowid from records_trigram where fqdn match ${fts})`);
        else if (dialect === 'postgres') q = q.where(sql<boolean>`r.id in (select record_id from record_fqdns where fqdn like ${pattern(term, match)} escape '\\')`);
      }
    }
    if (s.content) {
      const { term, match } = s.content;
      // SQLite's LIKE ignores ASCII case already; PostgreSQL's ILIKE does the same.
      const op = sql.raw(dialect === 'postgres' ? 'ilike' : 'like');
      q = match === 'exact' ? q.where('r.content', '=', term) : q.where(sql<boolean>`r.content ${op} ${pattern(term, match)} escape '\\'`);
      // On PostgreSQL, the pg_trgm index on content serves the ILIKE itself.
      const fts = match !== 'exact' && dialect === 'sqlite' ? trigramQuery(term) : undefined;
      if (fts !== undefined) q = q.where(sql<boolean>`r.id in (select rowid from records_trigram where content match ${fts})`);
    }
    if (s.contentPrefix) {
      const p = s.contentPrefix;
      // A range of the index on SQLite (binary order); PostgreSQL's collation may not order punctuation bytewise.
      q =
        dialect === 'sqlite'
          ? q.where('r.content', '>=', p).where('r.content', '<', p.slice(0, -1) + String.fromCharCode(p.charCodeAt(p.length - 1) + 1))
          : q.where(sql<boolean>`r.content like ${`${escapeLike(p)}%`} escape '\\'`);
    }
    return q;
  }
  const columns = ['r.id', 'r.name', 'r.record_type', 'r.content', 'r.ttl', 'r.disabled', 'r.domain_id', 'd.name as zone'] as const;

  return {
    templates: {
      insert: async (row) =>
        templateRow(
          await db
            .insertInto('templates')
            .values({ ...row, owner: ownerKey(row), rrsets: JSON.stringify(row.rrsets) })
            .returningAll()
            .executeTakeFirstOrThrow(),
        ),
      byId: async (id) => {
        const r = await db.selectFrom('templates').selectAll().where('id', '=', id).executeTakeFirst();
        return r && templateRow(r);
      },
      byName: async (owner, name) => {
        const r = await db.selectFrom('templates').selectAll().where('owner', '=', ownerKey(owner)).where('name', '=', name).executeTakeFirst();
        return r && templateRow(r);
      },
      page: async (userId, w) => {
        const q = db
          .selectFrom('templates')
          .where((eb) => eb.or([eb.and([eb('team_id', 'is', null), eb('user_id', '=', userId)]), eb('team_id', 'in', eb.selectFrom('team_members').select('team_id').where('user_id', '=', userId))]));
        const rows = await q.selectAll().orderBy('name').orderBy('id').limit(w.limit).offset(w.offset).execute();
        const total = await pageTotal(rows.length, w, () => count(q.select((e) => e.fn.countAll<number>().as('n')).executeTakeFirst()));
        return { rows: rows.map(templateRow), total };
      },
      update: async (id, { rrsets, ...patch }) =>
        templateRow(
          await db
            .updateTable('templates')
            .set({ ...patch, ...(rrsets ? { rrsets: JSON.stringify(rrsets) } : {}) })
            .where('id', '=', id)
            .returningAll()
            .executeTakeFirstOrThrow(),
        ),
      delete: async (id) => Number((await db.deleteFrom('templates').where('id', '=', id).executeTakeFirst()).numDeletedRows) > 0,
    },
    zoneTemplates: {
      set: async ({ variables, ...row }) => {
        const values = { ...row, variables: JSON.stringify(variables) };
        await db
          .insertInto('zone_templates')
          .values(values)
          .onConflict((oc) => oc.column('domain_id').doUpdateSet({ template_id: row.template_id, variables: values.variables, applied_at: row.applied_at }))
          .execute();
      },
      ofDomain: async (domainId) => {
        const r = await db.selectFrom('zone_templates').selectAll().where('domain_id', '=', domainId).executeTakeFirst();
        return r && { ...r, variables: JSON.parse(r.variables) as Record<string, string> };
      },
      zonesOf: async (templateId) => {
        const rows = await db
          .selectFrom('zone_templates as zt')
          .innerJoin('domains as d', 'd.id', 'zt.domain_id')
          .selectAll('d')
          .select(['zt.variables as zt_variables', 'zt.applied_at as zt_applied_at'])
          .where('zt.template_id', '=', templateId)
          .orderBy('d.name')
          .execute();
        return rows.map(({ zt_variables, zt_applied_at, ...d }) => ({
          zone: domainRow(d),
          variables: JSON.parse(zt_variables) as Record<string, string>,
          applied_at: zt_applied_at,
        }));
      },
    },
    recordSearch: {
      page: async (userId, s, w) => {
        const q = searchQuery(userId, s);
        // The total in the same scan (a window count): a search reads every record once, not twice.
        const got = await q
          .select([...columns, sql<number>`count(*) over ()`.as('total')])
          .orderBy('d.name')
          .orderBy('r.name')
          .orderBy('r.record_type')
          .orderBy('r.id')
          .limit(w.limit)
          .offset(w.offset)
          .execute();
        const rows = got.map(({ total: _t, ...r }) => r as FoundRecord);
        const total = got.length > 0 ? Number(got[0]!.total) : await pageTotal(0, w, () => count(q.select((e) => e.fn.countAll<number>().as('n')).executeTakeFirst()));
        return { rows, total };
      },
      scan: async (userId, s, after, limit) => {
        let q = searchQuery(userId, s);
        if (after) q = q.where((eb) => eb.or([eb('r.content', '>', after.content), eb.and([eb('r.content', '=', after.content), eb('r.id', '>', after.id)])]));
        return (await q.select(columns).orderBy('r.content').orderBy('r.id').limit(limit).execute()) as FoundRecord[];
      },
    },
  };
}
