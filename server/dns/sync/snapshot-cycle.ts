/**
 * Keeps the start-up snapshot current while the server runs (as Knot flushes a zone's journal
 * on a timer): once a zone changed, every `refreshMs` the zones changed since the file was
 * written are filed anew, so that the next start builds them from it too. A refresh already
 * running is joined, not doubled.
 */
import { turn } from '../../core/pause';
import type { ZoneSerial } from '../../store/types';
import { SnapshotReader, SnapshotWriter, type SnapshotEntry } from '../index/index-snapshot';
import { Zone, type ZoneIdentity } from '../index/zone';
import type { SnapshotRefresh, SyncDeps } from './sync-deps';
import { hostedSerials } from './zone-list';
import { readZoneRows } from './zone-load';

/** How often the snapshot is brought up to date while zones change. */
export const SNAPSHOT_REFRESH_MS = 10 * 60_000;

export class SnapshotCycle {
  /** Zones changed (an event applied, a reload) since the snapshot was last brought up to date. */
  private changedSince = false;
  private refreshing: Promise<SnapshotRefresh> | null = null;
  /** The zone built only to be filed: it tells no ALIAS watcher of itself, and is never served. */
  private readonly filing: ZoneIdentity;

  constructor(
    private readonly deps: SyncDeps,
    private readonly path: string,
    /** The start's own snapshot: a refresh waits for it to be on disk. */
    private readonly startup: Promise<void>,
  ) {
    this.filing = { primary: deps.identity.primary, hostmaster: deps.identity.hostmaster };
  }

  /** A zone of the index changed: the file is behind. */
  changed(): void {
    this.changedSince = true;
  }

  /** The timer's turn: a refresh when a zone changed and none is running, its outcome told to the hooks. */
  tick(): void {
    if (!this.changedSince || this.refreshing) return;
    const { hooks } = this.deps;
    this.refresh().then(
      (r) => hooks.snapshotRefreshed?.(r),
      // Tried again at the next turn (the zones changed since are still marked).
      (err: unknown) => hooks.snapshotFault?.('write_failed', `the snapshot cannot be brought up to date: ${(err as Error).message}`),
    );
  }

  /** Files anew the zones changed since the snapshot was written; joins a refresh already running. */
  refresh(): Promise<SnapshotRefresh> {
    this.refreshing ??= this.file().finally(() => (this.refreshing = null));
    return this.refreshing;
  }

  /**
   * Brings the snapshot up to date with the store, off the start: the tags first, then the
   * records, as at a start, so that rows filed under a tag are at least as new as it. A zone whose
   * block still matches its tag is copied as it is; any other is read from the store into a zone
   * of its own and filed from that. The zone being served is never filed: a write no event told of
   * would leave it behind its tag. Nothing is written when every zone still matches.
   */
  private async file(): Promise<SnapshotRefresh> {
    const { store } = this.deps;
    await this.startup;
    this.changedSince = false;
    const tags = await store.records.contentTags();
    const schema = await store.schemaVersion();
    const opened = SnapshotReader.open(this.path, schema);
    const old = typeof opened === 'string' ? null : opened;
    try {
      const kept: SnapshotEntry[] = [];
      const stale: ZoneSerial[] = [];
      for (const listed of await hostedSerials(this.deps)) {
        const tag = tags.get(listed.id);
        // A zone made after the tags were read waits for the next refresh (or start).
        if (tag === undefined) continue;
        const entry = old?.find(listed.id, listed.name, tag);
        if (entry) kept.push(entry);
        else stale.push(listed);
      }
      if (old && stale.length === 0) return { kept: kept.length, read: 0, written: false };
      const writer = SnapshotWriter.create(this.path, schema);
      try {
        for (const listed of stale) await this.fileZone(writer, listed, tags);
        if (old) await old.copyTo(kept, writer);
        await writer.finish();
      } catch (err) {
        writer.abort();
        throw err;
      }
      return { kept: kept.length, read: stale.length, written: true };
    } catch (err) {
      // Tried again at the next turn of the timer.
      this.changedSince = true;
      throw err;
    } finally {
      old?.close();
    }
  }

  /** Reads one zone from the store into a zone of its own and files it; nothing when it was deleted since. */
  private async fileZone(writer: SnapshotWriter, listed: ZoneSerial, tags: Map<number, string>): Promise<void> {
    const domain = await this.deps.store.domains.byId(listed.id);
    if (!domain || !writer.begin(domain.id, domain.name, tags.get(domain.id)!)) return;
    const zone = new Zone(domain, [], this.filing);
    await readZoneRows(this.deps.store, domain, (rel, rows) => {
      zone.replaceName(rel, rows);
      writer.name(rel, rows, zone);
    });
    writer.end();
    await turn();
  }
}
