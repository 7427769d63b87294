/**
 * A kysely dialect whose every failure is told by what it means (faults.ts): a query, a connect,
 * a BEGIN or ROLLBACK whose database does not answer throws `StoreUnavailable`, a write to a full
 * disk `InsufficientStorage`, and a COMMIT cut short says its outcome is unknown. The one place
 * where the drivers' errors become the store's, for both dialects, so the API, the BFF and the
 * PowerDNS API each answer them through their one error mapper.
 */
import type { CompiledQuery, DatabaseConnection, Dialect, Driver, QueryCompiler, QueryResult, TransactionSettings } from 'kysely';
import { commitFault, isConnectionFault, storeFault } from './faults';

type CompileQuery = QueryCompiler['compileQuery'];

class FaultConnection implements DatabaseConnection {
  constructor(readonly inner: DatabaseConnection) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    try {
      return await this.inner.executeQuery<R>(query);
    } catch (err) {
      throw storeFault(err);
    }
  }

  async *streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    try {
      yield* this.inner.streamQuery<R>(query, chunkSize);
    } catch (err) {
      throw storeFault(err);
    }
  }
}

const innerOf = (c: DatabaseConnection) => (c instanceof FaultConnection ? c.inner : c);

async function mapped<T>(work: Promise<T>, map: (err: unknown) => unknown = storeFault): Promise<T> {
  try {
    return await work;
  } catch (err) {
    throw map(err);
  }
}

class FaultDriver implements Driver {
  private readonly wrappers = new WeakMap<DatabaseConnection, FaultConnection>();

  constructor(private readonly inner: Driver) {}

  init = () => mapped(this.inner.init());

  async acquireConnection(): Promise<DatabaseConnection> {
    const c = await mapped(this.inner.acquireConnection());
    let wrapped = this.wrappers.get(c);
    if (!wrapped) this.wrappers.set(c, (wrapped = new FaultConnection(c)));
    return wrapped;
  }

  beginTransaction = (c: DatabaseConnection, settings: TransactionSettings) => mapped(this.inner.beginTransaction(innerOf(c), settings));

  commitTransaction = (c: DatabaseConnection) => mapped(this.inner.commitTransaction(innerOf(c)), commitFault);

  async rollbackTransaction(c: DatabaseConnection): Promise<void> {
    try {
      await this.inner.rollbackTransaction(innerOf(c));
    } catch (err) {
      // A session that is gone has no transaction left to roll back (the server discards it), and
      // kysely would throw this error in place of the one that led here: a failed COMMIT's above all.
      if (isConnectionFault(err)) return;
      throw storeFault(err);
    }
  }

  savepoint = (c: DatabaseConnection, name: string, compile: CompileQuery) => mapped(this.inner.savepoint!(innerOf(c), name, compile));
  rollbackToSavepoint = (c: DatabaseConnection, name: string, compile: CompileQuery) => mapped(this.inner.rollbackToSavepoint!(innerOf(c), name, compile));
  releaseSavepoint = (c: DatabaseConnection, name: string, compile: CompileQuery) => mapped(this.inner.releaseSavepoint!(innerOf(c), name, compile));

  releaseConnection = (c: DatabaseConnection) => this.inner.releaseConnection(innerOf(c));
  destroy = () => this.inner.destroy();
}

/** `dialect` with its failures told by what they mean. */
export function withFaults(dialect: Dialect): Dialect {
  return {
    createDriver: () => new FaultDriver(dialect.createDriver()),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db) => dialect.createIntrospector(db),
  };
}
