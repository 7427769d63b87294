/**
 * Results read from the store, kept while nothing can have changed them: the cache is emptied
 * when this process writes what they come from (`invalidate()`) and when the database reports a
 * change made by any other connection (the CLI, another thread, another process). So a token
 * revoked by the CLI is refused from the next request on, exactly as without a cache.
 * Only stores that can report that (SQLite's `data_version`) cache; PostgreSQL reads every time.
 */
import type { ReadStore } from '../../store/types';

export class ReadCache<V> {
  private readonly map = new Map<string, V>();
  private version: number | undefined;
  private generation = 0;

  constructor(
    private readonly store: Pick<ReadStore, 'version'>,
    private readonly max = 10_000,
  ) {}

  async get(key: string, load: () => Promise<V>): Promise<V> {
    const version = this.store.version?.();
    if (version === undefined) return load();
    if (version !== this.version) {
      this.map.clear();
      this.version = version;
    }
    const hit = this.map.get(key);
    if (hit !== undefined) return hit;
    const generation = this.generation;
    const value = await load();
    // Only what was read after the last invalidation, and before any other connection's change, is kept.
    if (generation === this.generation && this.store.version?.() === version) {
      if (this.map.size >= this.max) this.map.clear();
      this.map.set(key, value);
    }
    return value;
  }

  invalidate(): void {
    this.generation++;
    this.map.clear();
  }
}
