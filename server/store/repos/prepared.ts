/**
 * Queries compiled once. kysely builds and compiles a query anew on every call, which costs
 * more JavaScript (15–30 µs) than SQLite takes to run a point query. The queries of the write
 * path and of authentication have a fixed shape, so each is compiled once per dialect and shape
 * with placeholder arguments, and then run with the real arguments bound by position: the SQL
 * is still kysely's, written once for both dialects, and SQLite runs it as a cached statement.
 */
import { CompiledQuery, type Compilable, type Kysely } from 'kysely';
import type { Dialect } from '../migrate';
import type { Database } from '../schema';

type Db = Kysely<Database>;

/** Placeholder for argument `i`; typed `never` so that it fits wherever kysely takes a value. */
export type Arg = (i: number) => never;

const MARK = '\u0000zonedeck-arg:';

/** Where each parameter of the compiled SQL comes from: an argument's index, or a constant of the query. */
type Slot = number | { value: unknown };

interface Template {
  sql: string;
  slots: Slot[];
}

/**
 * Runs compiled SQL on one connection (or a transaction's): SQLite straight on better-sqlite3's
 * cached statement, PostgreSQL through kysely's driver.
 */
export interface Runner {
  rows(sql: string, params: readonly unknown[]): Promise<unknown[]>;
  /** The number of rows the statement changed. */
  run(sql: string, params: readonly unknown[]): Promise<number>;
  /**
   * The id of the row a one-row INSERT made: SQLite's last rowid (no RETURNING, which costs
   * SQLite more than the insert itself), PostgreSQL's `returning id`.
   */
  insert(sql: string, params: readonly unknown[]): Promise<number>;
}

export function kyselyRunner(db: Db): Runner {
  return {
    rows: async (sql, params) => (await db.executeQuery(CompiledQuery.raw(sql, [...params]))).rows,
    run: async (sql, params) => Number((await db.executeQuery(CompiledQuery.raw(sql, [...params]))).numAffectedRows ?? 0),
    insert: async (sql, params) => {
      const r = await db.executeQuery<{ id: number }>(CompiledQuery.raw(sql, [...params]));
      return Number(r.insertId ?? r.rows[0]!.id);
    },
  };
}

/** A query of one shape; `shape` tells variants apart (an IN list's length, the columns set). */
export class Prepared<R, S extends string | number = never> {
  /** Per dialect, by shape (undefined for a query of one shape). */
  private readonly templates = { sqlite: new Map<S | undefined, Template>(), postgres: new Map<S | undefined, Template>() };

  constructor(private readonly build: (db: Db, arg: Arg, shape: S, dialect: Dialect) => Compilable<R>) {}

  template(db: Db, dialect: Dialect, shape: S): Template {
    const byShape = this.templates[dialect];
    let t = byShape.get(shape);
    if (!t) {
      const compiled = this.build(db, ((i: number) => `${MARK}${i}`) as Arg, shape, dialect).compile();
      const slots = compiled.parameters.map((p): Slot => (typeof p === 'string' && p.startsWith(MARK) ? Number(p.slice(MARK.length)) : { value: p }));
      t = { sql: compiled.sql, slots };
      byShape.set(shape, t);
    }
    return t;
  }
}

/** Runs prepared queries on `runner`, compiling them with `db` the first time. */
export function preparedRunner(db: Db, dialect: Dialect, runner: Runner) {
  /** The query's SQL and this call's parameters in their places. */
  const bound = <S extends string | number>(q: Prepared<unknown, S>, args: readonly unknown[], shape?: S): [string, unknown[]] => {
    const t = q.template(db, dialect, shape as S);
    return [t.sql, t.slots.map((s) => (typeof s === 'number' ? args[s] : s.value))];
  };
  const rows = async <R, S extends string | number>(q: Prepared<R, S>, args: readonly unknown[], shape?: S) => (await runner.rows(...bound(q, args, shape))) as R[];
  return {
    rows,
    first: async <R, S extends string | number>(q: Prepared<R, S>, args: readonly unknown[], shape?: S): Promise<R | undefined> => (await rows(q, args, shape))[0],
    run: <R, S extends string | number>(q: Prepared<R, S>, args: readonly unknown[], shape?: S): Promise<number> => runner.run(...bound(q, args, shape)),
    insert: <R, S extends string | number>(q: Prepared<R, S>, args: readonly unknown[], shape?: S): Promise<number> => runner.insert(...bound(q, args, shape)),
  };
}
