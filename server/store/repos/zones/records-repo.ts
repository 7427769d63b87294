/** The `records` repo of the Store interface (see repos.ts), over kysely for SQLite and PostgreSQL alike. */
import { pauseEvery } from '../../../core/pause';
import { count, pageTotal } from '../paging';
import { BATCH, NEAR_NAMES, PREPARED_ROWS, Q, RECORD_COLUMNS, argsOf, filterArgs, inBatches, listedFromJson, type RepoContext } from '../repo-kit';
import type { ListedRecord, RecordRow, Repos, ServedRecord } from '../../types';

export function recordsRepo({ db, dialect, p, recordCount, atNames }: RepoContext): Repos['records'] {
  return {
    ofType: async (domainId, recordType, after, limit) => {
      let q = db.selectFrom('records').select(['id', 'name', 'record_type', 'content', 'ttl', 'disabled']).where('domain_id', '=', domainId).where('record_type', '=', recordType);
      if (after) q = q.where((eb) => eb.or([eb('name', '>', after.name), eb.and([eb('name', '=', after.name), eb('id', '>', after.id)])]));
      return (await q.orderBy('name').orderBy('id').limit(limit).execute()) as ListedRecord[];
    },
    byId: (domainId, id) => db.selectFrom('records').selectAll().where('domain_id', '=', domainId).where('id', '=', id).executeTakeFirst(),
    page: async (domainId, filter, w) => {
      const { shape, args } = filterArgs(domainId, filter);
      const got = await p.rows(Q.recordPage, [...args, w.limit, w.offset], shape);
      const rows = dialect === 'sqlite' ? listedFromJson((got[0] as { page: string }).page) : (got as ListedRecord[]);
      // Unfiltered, the total is the count the triggers keep: no scan of a large zone per page.
      const countAll = shape === '' ? () => recordCount(domainId) : () => count(p.first(Q.recordsCount, args, shape));
      return { rows, total: await pageTotal(rows.length, w, countAll) };
    },
    atName: (domainId, name) => atNames(domainId, [name]),
    atNames,
    near: async (domainId, names, above) => {
      const rows: ListedRecord[] = [];
      const dnames: string[] = [];
      const run = async (at: readonly string[], up: readonly string[]) => {
        for (const r of await p.rows(Q.recordsNear, [domainId, ...at, ...up], `${at.length}:${up.length}`)) {
          if (r.id === null) dnames.push(r.name);
          else rows.push(r as ListedRecord);
        }
      };
      if (names.length <= NEAR_NAMES && above.length <= NEAR_NAMES) {
        if (names.length + above.length > 0) await run(names, above);
      } else {
        for (let i = 0; i < names.length; i += BATCH) await run(names.slice(i, i + BATCH), []);
        for (let i = 0; i < above.length; i += BATCH) await run([], above.slice(i, i + BATCH));
      }
      return { rows: rows.sort((x, y) => x.id - y.id), dnames };
    },
    byDomain: (domainId) => db.selectFrom('records').selectAll().where('domain_id', '=', domainId).orderBy('id').execute(),
    served: async (domainId, after, limit) => {
      const got = after ? await p.rows(Q.recordsServed, [domainId, after.name, after.record_type, after.id, limit], 'after') : await p.rows(Q.recordsServed, [domainId, limit], 'first');
      return dialect === 'sqlite' ? servedFromJson((got[0] as { rows: string }).rows) : (got as ServedRecord[]);
    },
    zoneCount: (domainId) => recordCount(domainId),
    maxTtl: async (domainId) =>
      Number(
        (
          await db
            .selectFrom('records')
            .select((eb) => eb.fn.max('ttl').as('m'))
            .where('domain_id', '=', domainId)
            .executeTakeFirst()
        )?.m ?? 0,
      ),
    contentTags: async () => new Map((await db.selectFrom('zone_content_tags').select(['domain_id', 'tag']).execute()).map((r) => [r.domain_id, r.tag])),
    update: async (id, patch) => (await db.updateTable('records').set(patch).where('id', '=', id).returningAll().executeTakeFirstOrThrow()) as RecordRow,
    insertMany: async (rows) => {
      const out: RecordRow[] = [];
      // SQLite runs one cached statement per row, with no round trip to save by batching.
      if (dialect === 'sqlite' || rows.length === 1) {
        for (const row of rows) {
          out.push({ id: await p.insert(Q.recordInsert, argsOf(RECORD_COLUMNS, [row])), ...row });
          await pauseEvery(out.length);
        }
        return out;
      }
      await inBatches(rows, async (batch) => {
        if (batch.length <= PREPARED_ROWS) out.push(...(await p.rows(Q.recordsInsert, argsOf(RECORD_COLUMNS, batch), batch.length)));
        else out.push(...((await db.insertInto('records').values(batch).returningAll().execute()) as RecordRow[]));
      });
      return out;
    },
    deleteMany: (ids) => inBatches(ids, (batch) => db.deleteFrom('records').where('id', 'in', batch).execute()),
  };
}

type ServedTuple = [id: number, name: string, record_type: string, content: string, ttl: number];

/** Whether `x` comes before `y` by name, type and id (SQLite's binary order; the names are ASCII). */
const servedBefore = (x: ServedTuple, y: ServedTuple) => (x[1] !== y[1] ? x[1] < y[1] : x[2] !== y[2] ? x[2] < y[2] : x[0] < y[0]);

/**
 * A slice of served records from SQLite's JSON text. The aggregate keeps its input's order in
 * practice, but SQLite does not promise it, and the load builds each name from rows that come
 * together: a slice out of order is sorted here.
 */
function servedFromJson(text: string): ServedRecord[] {
  const tuples = JSON.parse(text) as ServedTuple[];
  for (let i = 1; i < tuples.length; i++) {
    if (!servedBefore(tuples[i - 1]!, tuples[i]!)) {
      tuples.sort((x, y) => (servedBefore(x, y) ? -1 : 1));
      break;
    }
  }
  return tuples.map(([id, name, record_type, content, ttl]) => ({ id, name, record_type, content, ttl }));
}
