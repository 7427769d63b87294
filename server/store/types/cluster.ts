/** What only a database shared by many nodes gives: token buckets every node counts in, and the feed of what each node publishes. */

/** A token bucket's rate: sustained requests per second and the burst allowed at once. */
export interface BucketRate {
  perSecond: number;
  burst: number;
}

/** Token buckets every node shares. */
export interface SharedBuckets {
  /** Takes one token from the bucket of `key`; 0 when allowed, else the whole seconds to wait. */
  take(key: string, rate: BucketRate): Promise<number>;
}

/** What a node does with the messages other nodes publish (`Repos.publish`). */
export interface FeedHandlers {
  /** One message, in the order the transactions that published them committed. */
  message(payload: string): void;
  /** Listening (again): messages published while not listening are lost, so catch up now. */
  connected(): void;
  /** The connection dropped; it is opened again with backoff. */
  disconnected(err: unknown): void;
}

export interface Feed {
  close(): Promise<void>;
}

export interface ClusterRepos {
  /**
   * Sends `payload` (under 8,000 bytes) to every node's `Store.listen` when the transaction
   * commits, and never if it rolls back (PostgreSQL NOTIFY). A no-op on SQLite: one node only.
   */
  publish(payload: string | (() => string)): Promise<void>;
}
