/**
 * What the per-table repos (store/*-repo.ts) share: row mappers, the compiled queries of the write
 * path (prepared.ts), batching, and the context one `createRepos` call gives them all.
 */
import { sql, type Compilable, type Kysely, type Selectable } from 'kysely';
import { escapeLike, like } from './paging';
import { Prepared, preparedRunner, type Arg, type Runner } from './prepared';
import type { Database } from '../schema';
import type { Dialect } from '../migrate';
import { scopeFromJson } from '../../core/scope';
import type { ChangeSetRow, DnssecKeyRow, DomainRow, IpRow, ListedRecord, RecordFilter, RecordRow, ServedRecord, TokenRow, TsigKeyRow, UserRow } from '../types';
import { pause, SLICE_MS } from '../../core/pause';
import type { SecretBox } from '../secret-box';

export type Db = Kysely<Database>;

export const ipRow = (r: Selectable<Database['ips']>): IpRow => ({ ...r, active: Boolean(r.active) });
export const tokenRow = (r: Selectable<Database['tokens']>): TokenRow => ({ ...r, scope: scopeFromJson(r.scope) });
export const tsigKeyRow = (r: Selectable<Database['tsig_keys']>): TsigKeyRow => ({ ...r, algorithm: r.algorithm as TsigKeyRow['algorithm'], scope: scopeFromJson(r.scope) });
/** A user row with its flags as booleans. */
export const userRow = ({ must_change_password: _must, ...r }: Omit<Selectable<Database['users']>, 'email' | 'must_change_password'> & { must_change_password?: number }): UserRow => ({
  ...r,
  is_admin: Boolean(r.is_admin),
  disabled_at: r.disabled_at ?? null,
});
export const domainRow = ({ record_count: _count, change_count: _changes, primaries, kind, ...r }: Selectable<Database['domains']>): DomainRow => ({
  ...r,
  kind: kind === 'secondary' ? 'secondary' : 'primary',
  primaries: primaries ? (JSON.parse(primaries) as string[]) : [],
  serial_number: Number(r.serial_number),
  dnssec_enabled: Boolean(r.dnssec_enabled),
  delegated: Boolean(r.delegated),
  delegation_checked: Boolean(r.delegation_checked),
});
/** Every column of dnssec_keys but the private key: the API's reads never load it. */
export const PUBLIC_KEY_COLUMNS = ['id', 'domain_id', 'flags', 'algorithm', 'key_tag', 'public_key', 'ds_digest', 'created_at', 'role', 'state', 'state_at', 'published', 'signing', 'in_cds'] as const;
export const bool = (v: boolean | undefined) => (v === undefined ? undefined : v ? 1 : 0);

/** Rows of a `recordPage` as SQLite hands them back: `[[id, name, record_type, content, ttl], …]`. */
export function listedFromJson(json: string): ListedRecord[] {
  const rows = JSON.parse(json) as [number, string, string, string, number, number][];
  const out: ListedRecord[] = new Array(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const [id, name, record_type, content, ttl, disabled] = rows[i]!;
    out[i] = { id, name, record_type, content, ttl, disabled };
  }
  return out;
}

export const changeSetRow = (r: Omit<Selectable<Database['change_sets']>, 'batch_id'> & { batch_id?: string | null }): ChangeSetRow => ({
  ...r,
  serial_before: Number(r.serial_before),
  serial_after: Number(r.serial_after),
});

/** Up to this many names, and as many above them, a zone draft's load is one query (one compiled statement per pair of counts); past it, up to 500 of either per query. */
export const NEAR_NAMES = 16;

/** Rows per multi-row INSERT: well under SQLite's 32,766 bound parameters and PostgreSQL's 65,535. */
export const BATCH = 500;

/** The first key of each kind's advisory lock (the second is the user id). */
export const QUOTA_LOCKS = { zones: 7_413_001, tokens: 7_413_002, 'tsig-keys': 7_413_003, webhooks: 7_413_005 } as const;

export async function inBatches<T>(rows: readonly T[], write: (batch: T[]) => Promise<unknown>): Promise<void> {
  let since = performance.now();
  for (let i = 0; i < rows.length; i += BATCH) {
    await write(rows.slice(i, i + BATCH));
    // A big change lets the event loop run between batches once SLICE_MS has gone by (by time, not
    // rows: a batch of SQLite statements runs on this thread, and its cost varies tenfold).
    if (i + BATCH < rows.length && performance.now() - since >= SLICE_MS) {
      await pause();
      since = performance.now();
    }
  }
}

/** Rows of a multi-row INSERT up to which its statement is kept compiled (one per row count). */
export const PREPARED_ROWS = 16;
export const LISTED_COLUMNS = ['id', 'name', 'record_type', 'content', 'ttl', 'disabled'] as const;
export const SERVED_COLUMNS = ['id', 'name', 'record_type', 'content', 'ttl'] as const;
export const RECORD_COLUMNS = ['domain_id', 'name', 'record_type', 'content', 'ttl', 'created_at', 'updated_at', 'disabled'] as const;
export const CHANGE_SET_COLUMNS = [
  'domain_id',
  'serial_before',
  'serial_after',
  'created_at',
  'source',
  'actor_username',
  'actor_credential',
  'comment',
  'settings',
  'added_count',
  'removed_count',
] as const;
export const ENTRY_COLUMNS = ['change_set_id', 'op', 'name', 'record_type', 'ttl', 'content', 'disabled'] as const;

/** `n` rows of `columns`, each value an argument in row order. */
export const rowsOf = <C extends string>(columns: readonly C[], n: number, a: (i: number) => never) =>
  Array.from({ length: n }, (_, r) => Object.fromEntries(columns.map((c, i) => [c, a(r * columns.length + i)])) as Record<C, never>);
export function argsOf<C extends string>(columns: readonly C[], rows: readonly Record<C, unknown>[]): unknown[] {
  const out: unknown[] = [];
  for (const row of rows) for (const c of columns) out.push(row[c]);
  return out;
}

/** An INSERT whose new id the runner reports: `returning id` on PostgreSQL, SQLite's last rowid. */
export const withId = (q: Compilable<unknown> & { returning(column: 'id'): Compilable<unknown> }, dialect: Dialect): Compilable<unknown> => (dialect === 'postgres' ? q.returning('id') : q);

/** The queries of the write path and of authentication, compiled once (prepared.ts). */
export const Q = {
  userById: new Prepared((db, a) => db.selectFrom('users').selectAll().where('id', '=', a(0))),
  tokenWithUser: new Prepared((db, a) =>
    db
      .selectFrom('tokens')
      .innerJoin('users', 'users.id', 'tokens.user_id')
      .selectAll('tokens')
      .select(['users.username', 'users.password_hash', 'users.created_at as user_created_at', 'users.is_admin', 'users.disabled_at'])
      .where('token_hash', '=', a(0)),
  ),
  domainByName: new Prepared((db, a) => db.selectFrom('domains').selectAll().where('name', '=', a(0))),
  domainById: new Prepared((db, a) => db.selectFrom('domains').selectAll().where('id', '=', a(0))),
  domainLock: new Prepared((db, a) => db.selectFrom('domains').selectAll().where('id', '=', a(0)).forUpdate()),
  /** Shape: the columns set, comma-separated, then `;guard` for a bound on the record count; the id (then the bound) are the last arguments. */
  domainUpdate: new Prepared((db, a, shape: string) => {
    const [columns, guard] = shape.split(';');
    const cols = columns!.split(',');
    const q = db
      .updateTable('domains')
      .set(Object.fromEntries(cols.map((c, i) => [c, a(i)])))
      .where('id', '=', a(cols.length));
    return guard ? q.where('record_count', '<=', a(cols.length + 1)) : q;
  }),
  recordCount: new Prepared((db, a) => db.selectFrom('domains').select('record_count').where('id', '=', a(0))),
  /** Shape: how many names. */
  recordsAtNames: new Prepared((db, a, n: number) =>
    db
      .selectFrom('records')
      .selectAll()
      .where('domain_id', '=', a(0))
      .where(
        'name',
        'in',
        Array.from({ length: n }, (_, i) => a(i + 1)),
      ),
  ),
  /**
   * A page of a record list: shape and arguments as `filteredRecords`, then limit and offset. SQLite hands the page
   * back as one JSON array, for better-sqlite3 turns every value of every row into JavaScript one
   * by one, which costs several times what SQLite takes to find the rows (docs/benchmarks.md).
   */
  recordPage: new Prepared((db, a, shape: string, dialect) => {
    const { q, next } = filteredRecords(db, a, shape);
    const page = q
      .select(LISTED_COLUMNS)
      .orderBy('name')
      .orderBy('record_type')
      .orderBy('id')
      .limit(a(next))
      .offset(a(next + 1));
    if (dialect === 'postgres') return page as Compilable<ListedRecord | { page: string }>;
    return db.selectFrom(page.as('p')).select(sql<string>`json_group_array(json_array(id, name, record_type, content, ttl, disabled) order by name, record_type, id)`.as('page'));
  }),
  /**
   * The zone's served (not disabled) records in the records_lookup index's order — by name, type
   * and id, so a name's rows come together and nothing is sorted — after a place of that order, at
   * most `limit`: the DNS index's load (dns/sync/zone-load.ts). SQLite hands the slice over as one JSON text
   * of arrays, which costs half of what a row object each from the driver does.
   */
  recordsServed: new Prepared((db, a, shape: 'first' | 'after', dialect) => {
    let q = db.selectFrom('records').select(SERVED_COLUMNS).where('domain_id', '=', a(0)).where('disabled', '=', 0);
    if (shape === 'after') q = q.where((eb) => eb(eb.refTuple('name', 'record_type', 'id'), '>', eb.tuple(a(1), a(2), a(3))));
    const slice = q
      .orderBy('name')
      .orderBy('record_type')
      .orderBy('id')
      .limit(a(shape === 'after' ? 4 : 1));
    if (dialect === 'postgres') return slice as Compilable<ServedRecord | { rows: string }>;
    // The slice is a co-routine feeding the aggregate in its order; the repo checks the order all the same.
    return db.selectFrom(slice.as('s')).select(sql<string>`json_group_array(json_array(id, name, record_type, content, ttl))`.as('rows'));
  }),
  /** How many records a filter selects (shape and arguments as `recordPage`'s, without limit and offset). */
  recordsCount: new Prepared((db, a, shape: string) => filteredRecords(db, a, shape).q.select((e) => e.fn.countAll<number>().as('n'))),
  /**
   * What a zone draft loads (`near` below): the records at `n` names, and the DNAME records at
   * `m` names above them, with no content (shape `n:m`; the zone id is the first argument, then
   * the names, then the names above).
   */
  recordsNear: new Prepared((db, a, shape: string) => {
    const [n, m] = shape.split(':').map(Number) as [number, number];
    const at = db
      .selectFrom('records')
      .select(LISTED_COLUMNS)
      .where('domain_id', '=', a(0))
      .where(
        'name',
        'in',
        Array.from({ length: n }, (_, i) => a(1 + i)),
      );
    const dnames = db
      .selectFrom('records')
      .select([sql<number>`null`.as('id'), 'name', 'record_type', sql<string>`null`.as('content'), sql<number>`null`.as('ttl'), sql<number>`null`.as('disabled')])
      .where('domain_id', '=', a(0))
      .where('record_type', '=', 'DNAME')
      .where(
        'name',
        'in',
        Array.from({ length: m }, (_, i) => a(1 + n + i)),
      );
    return (n === 0 ? dnames : m === 0 ? at : at.unionAll(dnames)) as Compilable<ListedRecord | { id: null; name: string }>;
  }),
  /** One row; its id comes back as the runner's insert id (no RETURNING on SQLite). */
  recordInsert: new Prepared((db, a, _: never, dialect) => withId(db.insertInto('records').values(rowsOf(RECORD_COLUMNS, 1, a)[0]!), dialect)),
  /** Shape: how many rows (PostgreSQL: one round trip for many). */
  recordsInsert: new Prepared((db, a, n: number) =>
    db
      .insertInto('records')
      .values(rowsOf(RECORD_COLUMNS, n, a))
      .returningAll(),
  ),
  changeSetInsert: new Prepared((db, a, _: never, dialect) => withId(db.insertInto('change_sets').values(rowsOf(CHANGE_SET_COLUMNS, 1, a)[0]!), dialect)),
  /** Shape: how many rows. */
  entriesInsert: new Prepared((db, a, n: number) => db.insertInto('change_set_records').values(rowsOf(ENTRY_COLUMNS, n, a))),
};

/**
 * A zone's records that a filter selects. Shape: the filters given, `n` name, `b` below (the
 * name, then the LIKE pattern of the names under it), `t` type; the zone id is argument 0, the
 * filters' values follow in that order (`filterArgs`); `next` is the index of the argument after them.
 */
export function filteredRecords(db: Db, a: Arg, shape: string) {
  let i = 1;
  let q = db.selectFrom('records').where('domain_id', '=', a(0));
  if (shape.includes('n')) q = q.where('name', '=', a(i++));
  if (shape.includes('b')) {
    const [below, pattern] = [a(i++), a(i++)];
    q = q.where((eb) => eb.or([eb('name', '=', below), like('name', pattern)]));
  }
  if (shape.includes('t')) q = q.where('record_type', '=', a(i++));
  return { q, next: i };
}

/** The shape and arguments of `filteredRecords` for a filter. */
export function filterArgs(domainId: number, filter: RecordFilter): { shape: string; args: unknown[] } {
  let shape = '';
  const args: unknown[] = [domainId];
  if (filter.name !== undefined) ((shape += 'n'), args.push(filter.name));
  if (filter.below !== undefined) ((shape += 'b'), args.push(filter.below, `%.${escapeLike(filter.below)}`));
  if (filter.record_type !== undefined) ((shape += 't'), args.push(filter.record_type));
  return { shape, args };
}

/**
 * The repos on `db` (the store, or one transaction of it). `runner` runs the prepared queries;
 * through kysely by default, SQLite's transactions pass one that runs them on better-sqlite3.
 * `zones`, given by a transaction that no other connection can write under (SQLite's group
 * commit holds the write lock), keeps the zones it read by name: writes through these repos keep
 * it true, and the caller empties it when it rolls any of them back.
 */

/** What every table's repo works on: the connection (or transaction), its dialect, the secret box, the prepared runner and helpers. */
export function repoContext(db: Db, dialect: Dialect, box: SecretBox, runner: Runner, zones?: Map<string, DomainRow>) {
  // Secrets are sealed on the way in and opened on the way out: nothing above sees the stored form.
  const tsigRow = (r: Selectable<Database['tsig_keys']>): TsigKeyRow => ({ ...tsigKeyRow(r), secret: box.open(r.secret, `tsig:${r.name}`) });
  const signingRow = (r: Selectable<Database['dnssec_keys']>): DnssecKeyRow =>
    ({
      ...r,
      role: r.role,
      state: r.state,
      published: Boolean(r.published),
      signing: Boolean(r.signing),
      in_cds: Boolean(r.in_cds),
      private_key: box.open(r.private_key, `dnssec:${r.domain_id}`),
    }) as DnssecKeyRow;
  const p = preparedRunner(db, dialect, runner);
  /** A zone's record count as the triggers of migration 0004 keep it. */
  const recordCount = async (domainId: number) => Number((await p.first(Q.recordCount, [domainId]))?.record_count ?? 0);
  const firstDomain = async (q: Promise<Selectable<Database['domains']> | undefined>) => {
    const r = await q;
    return r && domainRow(r);
  };
  /** Records at these names, by id (sorted here: ORDER BY would sort them in a temp b-tree): one query per 500 names. */
  const atNames = async (domainId: number, names: readonly string[]): Promise<RecordRow[]> => {
    const out: RecordRow[] = [];
    for (let i = 0; i < names.length; i += BATCH) {
      const some = names.slice(i, i + BATCH);
      out.push(...(await p.rows(Q.recordsAtNames, [domainId, ...some], some.length)));
    }
    return out.sort((x, y) => x.id - y.id);
  };

  return { db, dialect, box, runner, zones, tsigRow, signingRow, p, recordCount, firstDomain, atNames };
}

export type RepoContext = ReturnType<typeof repoContext>;
