/**
 * The Repos of the Store interface written once over kysely, for SQLite and PostgreSQL
 * alike. Rows are mapped here (0/1 to booleans, bigint to number) so nothing above sees
 * a database type.
 */
import { sql, type Compilable, type Kysely, type Selectable } from 'kysely';
import { createClusterRepos } from './cluster-repos';
import { createTeamRepos } from './team-repos';
import { createStatsRepos } from './stats-repos';
import { createFactorRepos } from './factor-repos';
import { createOidcRepos } from './oidc-repos';
import { createTemplateRepos } from './template-repos';
import { createDeletedZoneRepos } from './deleted-zone-repos';
import { count, escapeLike, like, pageTotal } from './paging';
import { kyselyRunner, Prepared, preparedRunner, type Arg, type Runner } from './prepared';
import type { Database } from './schema';
import type { Dialect } from './migrate';
import { scopeFromJson, scopeToJson } from '../core/scope';
import type { ChangeEntryRow, ChangeSetRow, DnssecKeyRow, DnssecPublicKey, DomainRow, IpRow, ListedRecord, NewRow, RecordFilter, RecordRow, Repos, TokenRow, TsigKeyRow, UserRow, ZoneAttributes } from './types';
import { pause, PAUSE_EVERY, pauseEvery } from '../core/pause';
import type { SecretBox } from './secret-box';

type Db = Kysely<Database>;

const ipRow = (r: Selectable<Database['ips']>): IpRow => ({ ...r, active: Boolean(r.active) });
const tokenRow = (r: Selectable<Database['tokens']>): TokenRow => ({ ...r, scope: scopeFromJson(r.scope) });
const tsigKeyRow = (r: Selectable<Database['tsig_keys']>): TsigKeyRow => ({ ...r, algorithm: r.algorithm as TsigKeyRow['algorithm'], scope: scopeFromJson(r.scope) });
/** A user row with its flags as booleans. */
export const userRow = (r: Omit<Selectable<Database['users']>, 'email'>): UserRow => ({ ...r, is_admin: Boolean(r.is_admin), disabled_at: r.disabled_at ?? null });
const domainRow = ({ record_count: _count, change_count: _changes, ...r }: Selectable<Database['domains']>): DomainRow => ({
  ...r,
  serial_number: Number(r.serial_number),
  dnssec_enabled: Boolean(r.dnssec_enabled),
  delegated: Boolean(r.delegated),
});
/** Every column of dnssec_keys but the private key: the API's reads never load it. */
const PUBLIC_KEY_COLUMNS = ['id', 'domain_id', 'flags', 'algorithm', 'key_tag', 'public_key', 'ds_digest', 'created_at'] as const;
const bool = (v: boolean | undefined) => (v === undefined ? undefined : v ? 1 : 0);



/** Rows of a `recordPage` as SQLite hands them back: `[[id, name, record_type, content, ttl], …]`. */
function listedFromJson(json: string): ListedRecord[] {
  const rows = JSON.parse(json) as [number, string, string, string, number, number][];
  const out: ListedRecord[] = new Array(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const [id, name, record_type, content, ttl, disabled] = rows[i]!;
    out[i] = { id, name, record_type, content, ttl, disabled };
  }
  return out;
}

const changeSetRow = (r: Omit<Selectable<Database['change_sets']>, 'batch_id'> & { batch_id?: string | null }): ChangeSetRow => ({
  ...r,
  serial_before: Number(r.serial_before),
  serial_after: Number(r.serial_after),
});

/** Up to this many names, and as many above them, a zone draft's load is one query (one compiled statement per pair of counts); past it, up to 500 of either per query. */
const NEAR_NAMES = 16;

/** Rows per multi-row INSERT: well under SQLite's 32,766 bound parameters and PostgreSQL's 65,535. */
const BATCH = 500;

/** The first key of each kind's advisory lock (the second is the user id). */
const QUOTA_LOCKS = { zones: 7_413_001, tokens: 7_413_002, 'tsig-keys': 7_413_003 } as const;

async function inBatches<T>(rows: readonly T[], write: (batch: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += BATCH) {
    await write(rows.slice(i, i + BATCH));
    // A big change lets the event loop run every few thousand rows (the transaction holds the connection).
    if (Math.floor((i + BATCH) / PAUSE_EVERY) > Math.floor(i / PAUSE_EVERY)) await pause();
  }
}

/** Rows of a multi-row INSERT up to which its statement is kept compiled (one per row count). */
const PREPARED_ROWS = 16;
const LISTED_COLUMNS = ['id', 'name', 'record_type', 'content', 'ttl', 'disabled'] as const;
const RECORD_COLUMNS = ['domain_id', 'name', 'record_type', 'content', 'ttl', 'created_at', 'updated_at', 'disabled'] as const;
const CHANGE_SET_COLUMNS = ['domain_id', 'serial_before', 'serial_after', 'created_at', 'source', 'actor_username', 'actor_credential', 'comment', 'settings', 'added_count', 'removed_count'] as const;
const ENTRY_COLUMNS = ['change_set_id', 'op', 'name', 'record_type', 'ttl', 'content', 'disabled'] as const;

/** `n` rows of `columns`, each value an argument in row order. */
const rowsOf = <C extends string>(columns: readonly C[], n: number, a: (i: number) => never) =>
  Array.from({ length: n }, (_, r) => Object.fromEntries(columns.map((c, i) => [c, a(r * columns.length + i)])) as Record<C, never>);
function argsOf<C extends string>(columns: readonly C[], rows: readonly Record<C, unknown>[]): unknown[] {
  const out: unknown[] = [];
  for (const row of rows) for (const c of columns) out.push(row[c]);
  return out;
}

/** An INSERT whose new id the runner reports: `returning id` on PostgreSQL, SQLite's last rowid. */
const withId = (q: Compilable<unknown> & { returning(column: 'id'): Compilable<unknown> }, dialect: Dialect): Compilable<unknown> => (dialect === 'postgres' ? q.returning('id') : q);

/** The queries of the write path and of authentication, compiled once (prepared.ts). */
const Q = {
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
      .where('name', 'in', Array.from({ length: n }, (_, i) => a(i + 1))),
  ),
  /**
   * A page of a record list: shape and arguments as `filteredRecords`, then limit and offset. SQLite hands the page
   * back as one JSON array, for better-sqlite3 turns every value of every row into JavaScript one
   * by one, which costs several times what SQLite takes to find the rows (docs/benchmarks.md).
   */
  recordPage: new Prepared((db, a, shape: string, dialect) => {
    const { q, next } = filteredRecords(db, a, shape);
    const page = q.select(LISTED_COLUMNS).orderBy('name').orderBy('record_type').orderBy('id').limit(a(next)).offset(a(next + 1));
    if (dialect === 'postgres') return page as Compilable<ListedRecord | { page: string }>;
    return db.selectFrom(page.as('p')).select(sql<string>`json_group_array(json_array(id, name, record_type, content, ttl, disabled) order by name, record_type, id)`.as('page'));
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
      .where('name', 'in', Array.from({ length: n }, (_, i) => a(1 + i)));
    const dnames = db
      .selectFrom('records')
      .select([sql<number>`null`.as('id'), 'name', 'record_type', sql<string>`null`.as('content'), sql<number>`null`.as('ttl'), sql<number>`null`.as('disabled')])
      .where('domain_id', '=', a(0))
      .where('record_type', '=', 'DNAME')
      .where('name', 'in', Array.from({ length: m }, (_, i) => a(1 + n + i)));
    return (n === 0 ? dnames : m === 0 ? at : at.unionAll(dnames)) as Compilable<ListedRecord | { id: null; name: string }>;
  }),
  /** One row; its id comes back as the runner's insert id (no RETURNING on SQLite). */
  recordInsert: new Prepared((db, a, _: never, dialect) => withId(db.insertInto('records').values(rowsOf(RECORD_COLUMNS, 1, a)[0]!), dialect)),
  /** Shape: how many rows (PostgreSQL: one round trip for many). */
  recordsInsert: new Prepared((db, a, n: number) => db.insertInto('records').values(rowsOf(RECORD_COLUMNS, n, a)).returningAll()),
  changeSetInsert: new Prepared((db, a, _: never, dialect) => withId(db.insertInto('change_sets').values(rowsOf(CHANGE_SET_COLUMNS, 1, a)[0]!), dialect)),
  /** Shape: how many rows. */
  entriesInsert: new Prepared((db, a, n: number) => db.insertInto('change_set_records').values(rowsOf(ENTRY_COLUMNS, n, a))),
};

/**
 * A zone's records that a filter selects. Shape: the filters given, `n` name, `b` below (the
 * name, then the LIKE pattern of the names under it), `t` type; the zone id is argument 0, the
 * filters' values follow in that order (`filterArgs`); `next` is the index of the argument after them.
 */
function filteredRecords(db: Db, a: Arg, shape: string) {
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
function filterArgs(domainId: number, filter: RecordFilter): { shape: string; args: unknown[] } {
  let shape = '';
  const args: unknown[] = [domainId];
  if (filter.name !== undefined) (shape += 'n'), args.push(filter.name);
  if (filter.below !== undefined) (shape += 'b'), args.push(filter.below, `%.${escapeLike(filter.below)}`);
  if (filter.record_type !== undefined) (shape += 't'), args.push(filter.record_type);
  return { shape, args };
}


/**
 * The repos on `db` (the store, or one transaction of it). `runner` runs the prepared queries;
 * through kysely by default, SQLite's transactions pass one that runs them on better-sqlite3.
 * `zones`, given by a transaction that no other connection can write under (SQLite's group
 * commit holds the write lock), keeps the zones it read by name: writes through these repos keep
 * it true, and the caller empties it when it rolls any of them back.
 */
export function createRepos(db: Db, dialect: Dialect, box: SecretBox, runner: Runner = kyselyRunner(db), zones?: Map<string, DomainRow>): Repos {
  // Secrets are sealed on the way in and opened on the way out (DESIGN.md §17): nothing above sees the stored form.
  const tsigRow = (r: Selectable<Database['tsig_keys']>): TsigKeyRow => ({ ...tsigKeyRow(r), secret: box.open(r.secret, `tsig:${r.name}`) });
  const signingRow = (r: Selectable<Database['dnssec_keys']>): DnssecKeyRow => ({ ...r, private_key: box.open(r.private_key, `dnssec:${r.domain_id}`) }) as DnssecKeyRow;
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

  return {
    users: {
      insert: async ({ is_admin, ...row }) => userRow(await db.insertInto('users').values({ ...row, is_admin: is_admin ? 1 : 0 }).returningAll().executeTakeFirstOrThrow()),
      byUsername: async (username) => {
        const r = await db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst();
        return r && userRow(r);
      },
      byId: async (id) => {
        const r = await p.first(Q.userById, [id]);
        return r && userRow(r);
      },
      count: () => count(db.selectFrom('users').select((e) => e.fn.countAll<number>().as('n')).executeTakeFirst()),
      setPassword: async (id, hash) => {
        await db.updateTable('users').set({ password_hash: hash }).where('id', '=', id).execute();
      },
      page: async (w, search) => {
        let q = db.selectFrom('users');
        if (search) q = q.where(like('username', `%${escapeLike(search.toLowerCase())}%`));
        const rows = await q.selectAll().orderBy('username').limit(w.limit).offset(w.offset).execute();
        const total = await pageTotal(rows.length, w, () => count(q.select((e) => e.fn.countAll<number>().as('n')).executeTakeFirst()));
        return { rows: rows.map(userRow), total };
      },
      update: async (id, patch) => {
        const set: { is_admin?: number; disabled_at?: string | null } = {};
        if (patch.is_admin !== undefined) set.is_admin = patch.is_admin ? 1 : 0;
        if (patch.disabled_at !== undefined) set.disabled_at = patch.disabled_at;
        if (Object.keys(set).length) await db.updateTable('users').set(set).where('id', '=', id).execute();
      },
    },
    tokens: {
      insert: async (row) => tokenRow(await db.insertInto('tokens').values({ ...row, scope: scopeToJson(row.scope) }).returningAll().executeTakeFirstOrThrow()),
      byHash: async (hash) => {
        const r = await db.selectFrom('tokens').selectAll().where('token_hash', '=', hash).executeTakeFirst();
        return r && tokenRow(r);
      },
      byId: async (id) => {
        const r = await db.selectFrom('tokens').selectAll().where('id', '=', id).executeTakeFirst();
        return r && tokenRow(r);
      },
      withUser: async (hash) => {
        const r = await p.first(Q.tokenWithUser, [hash]);
        if (!r) return undefined;
        const { username, password_hash, user_created_at, is_admin, disabled_at, ...token } = r;
        return { token: tokenRow(token), user: userRow({ id: token.user_id, username, password_hash, created_at: user_created_at, is_admin, disabled_at }) };
      },
      listByUser: async (userId) => (await db.selectFrom('tokens').selectAll().where('user_id', '=', userId).orderBy('id').execute()).map(tokenRow),
      page: async (userId, w, opts = {}) => {
        let q = db.selectFrom('tokens').where('user_id', '=', userId);
        // API tokens only: not the tokens dashboard sessions hold.
        if (opts.apiOnly) q = q.where((eb) => eb.not(eb.exists(eb.selectFrom('sessions').select('sessions.token_id').whereRef('sessions.token_id', '=', 'tokens.id'))));
        const rows = await q.selectAll().orderBy('id', opts.newestFirst ? 'desc' : 'asc').limit(w.limit).offset(w.offset).execute();
        const total = await pageTotal(rows.length, w, () => count(q.select((e) => e.fn.countAll<number>().as('n')).executeTakeFirst()));
        return { rows: rows.map(tokenRow), total };
      },
      delete: async (id) => Number((await db.deleteFrom('tokens').where('id', '=', id).executeTakeFirst()).numDeletedRows) > 0,
      touch: async (id, at) => {
        await db.updateTable('tokens').set({ last_used_at: at }).where('id', '=', id).execute();
      },
    },
    tsigKeys: {
      insert: async (row) => tsigRow(await db.insertInto('tsig_keys').values({ ...row, secret: box.seal(row.secret, `tsig:${row.name}`), scope: scopeToJson(row.scope) }).returningAll().executeTakeFirstOrThrow()),
      byName: async (name) => {
        const r = await db.selectFrom('tsig_keys').selectAll().where('name', '=', name).executeTakeFirst();
        return r && tsigRow(r);
      },
      page: async (userId, w) => {
        const rows = await db.selectFrom('tsig_keys').selectAll().where('user_id', '=', userId).orderBy('id').limit(w.limit).offset(w.offset).execute();
        const total = await pageTotal(rows.length, w, () => count(db.selectFrom('tsig_keys').select((e) => e.fn.countAll<number>().as('n')).where('user_id', '=', userId).executeTakeFirst()));
        return { rows: rows.map(tsigRow), total };
      },
      listByUser: async (userId) => (await db.selectFrom('tsig_keys').selectAll().where('user_id', '=', userId).orderBy('id').execute()).map(tsigRow),
      // A disabled user's keys sign nothing (issue 27): the DNS server's keyring reads only the others.
      all: async () =>
        (
          await db
            .selectFrom('tsig_keys')
            .selectAll()
            .where('user_id', 'not in', db.selectFrom('users').select('id').where('disabled_at', 'is not', null))
            .orderBy('id')
            .execute()
        ).map(tsigRow),
      // Keys are never edited and ids never reused, so count and highest id tell a change of keys; the
      // disabled users' count and latest disabled_at tell a user disabled or enabled (each disabling sets a new, later time).
      version: async () => {
        const disabled = () => db.selectFrom('users').where('disabled_at', 'is not', null);
        const r = await db
          .selectFrom('tsig_keys')
          .select((e) => [
            e.fn.countAll<number>().as('n'),
            e.fn.max('id').as('last'),
            disabled()
              .select((u) => u.fn.countAll<number>().as('d'))
              .as('disabled'),
            disabled()
              .select((u) => u.fn.max('disabled_at').as('latest'))
              .as('latest'),
          ])
          .executeTakeFirst();
        return `${Number(r?.n ?? 0)}:${Number(r?.last ?? 0)}:${Number(r?.disabled ?? 0)}:${r?.latest ?? ''}`;
      },
      delete: async (id) => Number((await db.deleteFrom('tsig_keys').where('id', '=', id).executeTakeFirst()).numDeletedRows) > 0,
    },
    ips: {
      insert: async (row) => ipRow(await db.insertInto('ips').values({ ...row, active: row.active ? 1 : 0 }).returningAll().executeTakeFirstOrThrow()),
      page: async (userId, w) => {
        const rows = await db.selectFrom('ips').selectAll().where('user_id', '=', userId).orderBy('id').limit(w.limit).offset(w.offset).execute();
        const total = await pageTotal(rows.length, w, () => count(db.selectFrom('ips').select((e) => e.fn.countAll<number>().as('n')).where('user_id', '=', userId).executeTakeFirst()));
        return { rows: rows.map(ipRow), total };
      },
      listByUser: async (userId) => (await db.selectFrom('ips').selectAll().where('user_id', '=', userId).orderBy('id').execute()).map(ipRow),
      byId: async (id) => {
        const r = await db.selectFrom('ips').selectAll().where('id', '=', id).executeTakeFirst();
        return r && ipRow(r);
      },
      find: async (userId, address, cidr) => {
        const r = await db.selectFrom('ips').selectAll().where('user_id', '=', userId).where('address', '=', address).where('cidr', '=', cidr).executeTakeFirst();
        return r && ipRow(r);
      },
      delete: async (id) => Number((await db.deleteFrom('ips').where('id', '=', id).executeTakeFirst()).numDeletedRows) > 0,
    },
    domains: {
      insert: async (row) => {
        zones?.clear();
        return domainRow(
          await db
            .insertInto('domains')
            .values({ ...row, dnssec_enabled: row.dnssec_enabled ? 1 : 0, delegated: row.delegated ? 1 : 0 })
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
      all: async () => (await db.selectFrom('domains').selectAll().orderBy('name').execute()).map(domainRow),
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
          args.push(column === 'dnssec_enabled' || column === 'delegated' ? bool(value as boolean) : value);
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
    },
    quotas: {
      lock: async (kind, userId) => {
        if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(${QUOTA_LOCKS[kind]}, ${userId})`.execute(db);
      },
      count: async (kind, userId) => {
        const q =
          kind === 'zones'
            ? sql<{ n: number }>`select count(*) as n from domains where user_id = ${userId}`
            : kind === 'tsig-keys'
              ? sql<{ n: number }>`select count(*) as n from tsig_keys where user_id = ${userId}`
              : sql<{ n: number }>`select count(*) as n from tokens t where t.user_id = ${userId} and not exists (select 1 from sessions s where s.token_id = t.id)`;
        return Number((await q.execute(db)).rows[0]?.n ?? 0);
      },
    },
    zoneAttributes: {
      get: async (domainIds) => {
        const out = new Map<number, ZoneAttributes>();
        if (domainIds.length === 0) return out;
        for (const r of await db.selectFrom('zone_attributes').selectAll().where('domain_id', 'in', [...domainIds]).execute()) {
          out.set(Number(r.domain_id), { account: r.account, soa_edit_api: r.soa_edit_api, catalog: r.catalog });
        }
        return out;
      },
      set: async (domainId, a) => {
        await db
          .insertInto('zone_attributes')
          .values({ domain_id: domainId, ...a })
          .onConflict((oc) => oc.column('domain_id').doUpdateSet({ account: a.account, soa_edit_api: a.soa_edit_api, catalog: a.catalog }))
          .execute();
      },
    },
    rrsetComments: {
      byDomain: async (domainId, name) => {
        let q = db.selectFrom('rrset_comments').select(['name', 'record_type', 'content', 'account', 'modified_at']).where('domain_id', '=', domainId);
        if (name !== undefined) q = q.where('name', '=', name);
        return (await q.orderBy('id').execute()).map((r) => ({ ...r, modified_at: Number(r.modified_at) }));
      },
      replace: async (domainId, name, recordType, list) => {
        await db.deleteFrom('rrset_comments').where('domain_id', '=', domainId).where('name', '=', name).where('record_type', '=', recordType).execute();
        if (list.length > 0) await db.insertInto('rrset_comments').values(list.map((c) => ({ domain_id: domainId, name, record_type: recordType, ...c }))).execute();
      },
    },
    dnssecKeys: {
      insert: async (row) =>
        (await db
          .insertInto('dnssec_keys')
          .values({ ...row, private_key: box.seal(row.private_key, `dnssec:${row.domain_id}`) })
          .returning(PUBLIC_KEY_COLUMNS)
          .executeTakeFirstOrThrow()) as DnssecPublicKey,
      signingKeys: async (domainId) => (await db.selectFrom('dnssec_keys').selectAll().where('domain_id', '=', domainId).orderBy('id').execute()).map(signingRow),
      publicKeys: async (domainIds) => {
        if (domainIds.length === 0) return [];
        return db.selectFrom('dnssec_keys').select(PUBLIC_KEY_COLUMNS).where('domain_id', 'in', domainIds).orderBy('id').execute();
      },
      delete: async (id) => Number((await db.deleteFrom('dnssec_keys').where('id', '=', id).executeTakeFirst()).numDeletedRows) > 0,
      deleteByDomain: async (domainId) => Number((await db.deleteFrom('dnssec_keys').where('domain_id', '=', domainId).executeTakeFirst()).numDeletedRows),
    },
    sessions: {
      insert: async (row) => {
        await db.insertInto('sessions').values(row).execute();
        return row;
      },
      byIdHash: (idHash) => db.selectFrom('sessions').selectAll().where('id_hash', '=', idHash).executeTakeFirst(),
      touch: async (idHash, at) => {
        await db.updateTable('sessions').set({ last_seen_at: at }).where('id_hash', '=', idHash).execute();
      },
      delete: async (idHash) => Number((await db.deleteFrom('sessions').where('id_hash', '=', idHash).executeTakeFirst()).numDeletedRows) > 0,
      byUser: (userId) => db.selectFrom('sessions').selectAll().where('user_id', '=', userId).orderBy('created_at', 'desc').execute(),
      authenticated: async (idHash, at) => {
        await db.updateTable('sessions').set({ authenticated_at: at }).where('id_hash', '=', idHash).execute();
      },
      byTokenId: (tokenId) => db.selectFrom('sessions').selectAll().where('token_id', '=', tokenId).executeTakeFirst(),
      deleteExpired: async (at) => Number((await db.deleteFrom('sessions').where('expires_at', '<', at).executeTakeFirst()).numDeletedRows),
    },
    records: {
      ofType: async (domainId, recordType, after, limit) => {
        let q = db.selectFrom('records').select(['id', 'name', 'record_type', 'content', 'ttl', 'disabled']).where('domain_id', '=', domainId).where('record_type', '=', recordType);
        if (after) q = q.where((eb) => eb.or([eb('name', '>', after.name), eb.and([eb('name', '=', after.name), eb('id', '>', after.id)])]));
        return (await q.orderBy('name').orderBy('id').limit(limit).execute()) as ListedRecord[];
      },
      insert: async (row) => (await db.insertInto('records').values(row).returningAll().executeTakeFirstOrThrow()) as RecordRow,
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
      slice: (domainId, afterId, limit) => db.selectFrom('records').selectAll().where('domain_id', '=', domainId).where('id', '>', afterId).orderBy('id').limit(limit).execute(),
      countByDomain: (domainId) =>
        count(db.selectFrom('records').select((e) => e.fn.countAll<number>().as('n')).where('domain_id', '=', domainId).executeTakeFirst()),
      zoneCount: (domainId) => recordCount(domainId),
      update: async (id, patch) => (await db.updateTable('records').set(patch).where('id', '=', id).returningAll().executeTakeFirstOrThrow()) as RecordRow,
      delete: async (id) => Number((await db.deleteFrom('records').where('id', '=', id).executeTakeFirst()).numDeletedRows) > 0,
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
    },
    changes: {
      insert: async (row, entries) => {
        const cs = changeSetRow({ id: await p.insert(Q.changeSetInsert, argsOf(CHANGE_SET_COLUMNS, [row])), ...row });
        await inBatches(entries, async (batch) => {
          const rows = batch.map((e) => ({ ...e, change_set_id: cs.id }));
          if (rows.length <= PREPARED_ROWS) await p.run(Q.entriesInsert, argsOf(ENTRY_COLUMNS, rows), rows.length);
          else await db.insertInto('change_set_records').values(rows).execute();
        });
        return cs;
      },
      setBatch: async (id, batchId) => {
        await db.updateTable('change_sets').set({ batch_id: batchId }).where('id', '=', id).execute();
      },
      ofBatch: async (batchId) => {
        const rows = await db.selectFrom('change_sets').innerJoin('domains', 'domains.id', 'change_sets.domain_id').selectAll('change_sets').select('domains.name as zone').where('batch_id', '=', batchId).orderBy('change_sets.id').execute();
        return rows.map(({ zone, ...r }) => ({ ...changeSetRow(r), zone }));
      },
      byId: async (domainId, id) => {
        const r = await db.selectFrom('change_sets').selectAll().where('domain_id', '=', domainId).where('id', '=', id).executeTakeFirst();
        return r && changeSetRow(r);
      },
      page: async (domainId, filter, w) => {
        let q = db.selectFrom('change_sets').where('domain_id', '=', domainId);
        if (filter.source !== undefined) q = q.where('source', '=', filter.source);
        if (filter.username !== undefined) q = q.where('actor_username', '=', filter.username);
        const rows = await q.selectAll().orderBy('id', 'desc').limit(w.limit).offset(w.offset).execute();
        const unfiltered = filter.source === undefined && filter.username === undefined;
        const countAll = unfiltered
          ? async () => Number((await db.selectFrom('domains').select('change_count').where('id', '=', domainId).executeTakeFirst())?.change_count ?? 0)
          : () => count(q.select((e) => e.fn.countAll<number>().as('n')).executeTakeFirst());
        return { rows: rows.map(changeSetRow), total: await pageTotal(rows.length, w, countAll) };
      },
      entries: async (changeSetId, limit, op) => {
        let q = db.selectFrom('change_set_records').select(['op', 'name', 'record_type', 'ttl', 'content', 'disabled']).where('change_set_id', '=', changeSetId);
        if (op !== undefined) q = q.where('op', '=', op);
        q = q.orderBy('op').orderBy('id');
        if (limit !== undefined) q = q.limit(limit);
        return (await q.execute()) as ChangeEntryRow[];
      },
      entriesOf: async (ids) => {
        const out = new Map<number, ChangeEntryRow[]>(ids.map((id) => [id, []]));
        if (ids.length === 0) return out;
        const rows = await db
          .selectFrom('change_set_records')
          .select(['change_set_id', 'op', 'name', 'record_type', 'ttl', 'content', 'disabled'])
          .where('change_set_id', 'in', ids)
          .orderBy('change_set_id')
          .orderBy('op')
          .orderBy('id')
          .execute();
        for (const { change_set_id, ...e } of rows) out.get(change_set_id)!.push(e as ChangeEntryRow);
        return out;
      },
      from: async (domainId, serial) => {
        const first = await db
          .selectFrom('change_sets')
          .select('id')
          .where('domain_id', '=', domainId)
          .where('serial_before', '=', serial)
          .orderBy('id', 'desc')
          .executeTakeFirst();
        if (!first) return [];
        const rows = await db.selectFrom('change_sets').selectAll().where('domain_id', '=', domainId).where('id', '>=', first.id).orderBy('id').execute();
        return rows.map(changeSetRow);
      },
      prune: async (at) => Number((await db.deleteFrom('change_sets').where('created_at', '<', at).executeTakeFirst()).numDeletedRows),
    },
    ...createClusterRepos(db, dialect),
    ...createTeamRepos(db),
    ...createStatsRepos(db),
    ...createFactorRepos(db, box),
    ...createOidcRepos(db),
    ...createTemplateRepos(db, dialect),
    ...createDeletedZoneRepos(db, dialect),
  };
}
