/**
 * The TSIG keys the DNS server verifies and signs with, read from the store and kept current.
 * Keys are written by the API (main thread) and by the CLI (another process), and on
 * PostgreSQL by other nodes: none of them can tell this thread, so it asks the store every
 * second whether the set changed (one row read: count and highest id, as keys are never edited
 * and ids never reused) and reloads them only then. A new or revoked key takes effect within a second.
 */
import type { Role } from '../../core/roles';
import type { Scope } from '../../core/scope';
import type { ReadStore, TsigKeyRow } from '../../store/types';
import type { TsigKey, TsigRecord } from './tsig';

/** A key as the DNS server uses it: the secret decoded, with its owner, scope, and the owner's team roles. */
export interface DnsKey extends TsigKey {
  userId: number;
  scope: Scope;
  /** The owner's role in each team they belong to, by team id: any role reads (transfers) the team's zones. */
  teams?: ReadonlyMap<number, Role>;
}

/** A request whose TSIG was verified: the key, the request's record, and the octets its answer must leave free for its own TSIG. */
export interface SignedRequest {
  key: DnsKey;
  record: TsigRecord;
  reserve: number;
}

export interface KeyLookup {
  get(name: string): DnsKey | undefined;
  /**
   * A key not known yet: the keys are read again once (at most every FORCED_REFRESH_MS, concurrent
   * misses sharing the read) before the answer is BADKEY, so a key works the moment it is made.
   */
  fresh?(name: string): Promise<DnsKey | undefined>;
}

/** Least time between two reloads forced by unknown key names (a flood of made-up names costs a few reads a second). */
export const FORCED_REFRESH_MS = 200;

export const KEYRING_REFRESH_MS = 1000;

/** The owner the service's own key (NOTIFY_TSIG) stands for: no user; it may transfer every zone. */
export const SERVICE_KEY_USER = -1;

const dnsKey = (row: TsigKeyRow, teams?: ReadonlyMap<number, Role>): DnsKey => ({
  name: row.name,
  algorithm: row.algorithm,
  secret: Buffer.from(row.secret, 'base64'),
  userId: row.user_id,
  scope: row.scope,
  teams,
});

export class Keyring implements KeyLookup {
  private keys = new Map<string, DnsKey>();
  private version = '';
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly store: ReadStore,
    private readonly onError: (err: unknown) => void = () => {},
  ) {}

  get(name: string): DnsKey | undefined {
    return this.keys.get(name);
  }

  private pending: Promise<void> | null = null;
  private forcedAt = 0;

  async fresh(name: string): Promise<DnsKey | undefined> {
    const known = this.keys.get(name);
    if (known) return known;
    if (!this.pending) {
      const now = Date.now();
      if (now - this.forcedAt < FORCED_REFRESH_MS) return undefined;
      this.forcedAt = now;
      this.pending = this.refresh()
        .catch(this.onError)
        .finally(() => {
          this.pending = null;
        });
    }
    await this.pending;
    return this.keys.get(name);
  }

  get size(): number {
    return this.keys.size;
  }

  /** Reloads the keys if the set changed since the last look. */
  async refresh(): Promise<void> {
    // Keys and memberships: a member's key transfers the team's zones from the moment they join, and not after they leave.
    const version = `${await this.store.tsigKeys.version()}/${await this.store.teams.version()}`;
    if (version === this.version) return;
    // A failed read keeps the keys known so far (and is logged by the caller).
    const roles = new Map<number, Map<number, Role>>();
    for (const m of await this.store.teams.allMembers()) {
      let mine = roles.get(m.user_id);
      if (!mine) roles.set(m.user_id, (mine = new Map()));
      mine.set(m.team_id, m.role);
    }
    this.keys = new Map((await this.store.tsigKeys.all()).map((row) => [row.name, dnsKey(row, roles.get(row.user_id))]));
    this.version = version;
  }

  /** Loads the keys now and then looks for changes every `everyMs`. */
  async start(everyMs = KEYRING_REFRESH_MS): Promise<this> {
    await this.refresh();
    this.timer = setInterval(() => void this.refresh().catch(this.onError), everyMs);
    this.timer.unref();
    return this;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
