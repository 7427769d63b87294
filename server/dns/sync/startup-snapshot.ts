/**
 * The start's two snapshots (index/index-snapshot.ts): the old file, read for every zone it still
 * holds as the store has it, and the new one, written as the start goes: the zones read from the
 * store filed name by name while they are built, the ones restored from the old file copied in
 * whole at the end. Writing is best effort: a failure (a full disk, a data directory this process
 * cannot write to) stops the writing and is reported, never the load.
 */
import type { DomainRow, ReadStore, ServedRecord } from '../../store/types';
import { NO_SNAPSHOT, SnapshotReader, SnapshotWriter, type EntrySource, type SnapshotEntry } from '../index/index-snapshot';
import type { SnapshotFaultKind } from './sync-deps';

/** Told of each fault of the snapshot as it happens (counted in /metrics by the DNS server). */
export type OnSnapshotFault = (fault: SnapshotFaultKind, message: string) => void;

/** What the snapshot tells of the start (part of StartupLoad, startup-load.ts). */
export interface SnapshotReport {
  /** Why the snapshot was not read or not written, when it was not. */
  fault: string | null;
  /** Zones in the snapshot written at the end of this load (0: none written). */
  written: number;
}

export class StartupSnapshot {
  /** The zones built from the old snapshot: their blocks go into the new one as they are, at the end. */
  private readonly kept: SnapshotEntry[] = [];

  private constructor(
    private readonly report: SnapshotReport,
    private readonly onFault: OnSnapshotFault,
    /** Each zone's content tag, read before any record of the start. */
    private readonly tags: Map<number, string>,
    /** The old snapshot, when there is one this start can read. */
    readonly old: SnapshotReader | null,
    /** The new snapshot; null once writing it failed (the start goes on without one). */
    private writer: SnapshotWriter | null,
  ) {}

  /** The start's snapshot at `path`: the old one to read (when usable) and the new one to write; null when neither can be. */
  static async open(store: Pick<ReadStore, 'records' | 'schemaVersion'>, path: string, report: SnapshotReport, onFault: OnSnapshotFault = () => {}): Promise<StartupSnapshot | null> {
    let tags: Map<number, string>;
    let schema: string;
    try {
      // The tags first, then any record: records read after a tag are at least as new as it.
      tags = await store.records.contentTags();
      schema = await store.schemaVersion();
    } catch (err) {
      report.fault = `the snapshot is not used: ${(err as Error).message}`;
      return null;
    }
    const tell = (fault: SnapshotFaultKind, message: string) => {
      report.fault = message;
      onFault(fault, message);
    };
    const opened = SnapshotReader.open(path, schema);
    if (typeof opened === 'string') {
      if (opened === NO_SNAPSHOT) report.fault = opened;
      else tell('unreadable', opened);
    }
    const old = typeof opened === 'string' ? null : opened;
    let writer: SnapshotWriter | null = null;
    try {
      writer = SnapshotWriter.create(path, schema);
    } catch (err) {
      // A data directory this process cannot write to: the old snapshot is still read.
      tell('write_failed', `the snapshot cannot be written: ${(err as Error).message}`);
    }
    return new StartupSnapshot(report, onFault, tags, old, writer);
  }

  /** The old snapshot's entry of the zone, when it holds the zone as the store has it now. */
  find(domain: DomainRow): SnapshotEntry | undefined {
    return this.old?.find(domain.id, domain.name, this.tags.get(domain.id));
  }

  /** The zone was built from the old snapshot: its block is copied into the new one at the end. */
  restored(entry: SnapshotEntry): void {
    this.kept.push(entry);
  }

  /** Something went wrong that costs a read from the store, not the start (a damaged block). */
  fault(message: string): void {
    this.report.fault = message;
    this.onFault('zone_damaged', message);
  }

  /** Starts filing a zone read from the store; null when it is not filed (no tag, or no writing). */
  begin(domain: DomainRow): SnapshotWriter | null {
    const tag = this.tags.get(domain.id);
    if (tag === undefined || !this.writer) return null;
    try {
      return this.writer.begin(domain.id, domain.name, tag) ? this.writer : null;
    } catch (err) {
      this.stopWriting(err);
      return null;
    }
  }

  /**
   * Files one name as the zone built it: its entry of the index (most names), else its rows. A
   * method, not a closure, so that filing makes nothing per name.
   */
  file(w: SnapshotWriter, rel: string, rows: readonly ServedRecord[], zone: EntrySource): void {
    if (this.writer === null) return;
    try {
      w.name(rel, rows, zone);
    } catch (err) {
      this.stopWriting(err);
    }
  }

  /** The zone begun is filed whole. */
  end(): void {
    this.step((w) => w.end());
  }

  /** The zone begun failed to load: its part of the file is forgotten. */
  drop(): void {
    this.step((w) => w.drop());
  }

  /**
   * Puts the new snapshot in place: the zones read from the store (`read` of them) are in it
   * already, the ones built from the old snapshot are copied in now. When every zone came from the
   * old one, that file stays as it is (it holds them all).
   */
  async close(read: number): Promise<void> {
    const { writer: w, old, kept } = this;
    try {
      if (w && old && read === 0) {
        w.abort();
        this.report.written = kept.length;
      } else if (w) {
        if (old) await old.copyTo(kept, w);
        await w.finish();
        this.report.written = w.zones;
      }
    } catch (err) {
      this.stopWriting(err);
    }
    old?.close();
  }

  /** The start did not load every zone: no new snapshot, the old one stays as it was. */
  abandon(): void {
    this.writer?.abort();
    this.writer = null;
    this.old?.close();
  }

  /** Runs a step of writing the snapshot; a failure stops the writing, never the load. */
  private step(run: (w: SnapshotWriter) => void): void {
    if (!this.writer) return;
    try {
      run(this.writer);
    } catch (err) {
      this.stopWriting(err);
    }
  }

  private stopWriting(err: unknown): void {
    this.writer?.abort();
    this.writer = null;
    this.report.fault = `the snapshot cannot be written: ${(err as Error).message}`;
    this.onFault('write_failed', this.report.fault);
  }
}
