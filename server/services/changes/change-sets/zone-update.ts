/**
 * The handle of one open change set, in the manner of Knot's zone update: opened on a zone for an
 * actor (open.ts: the zone read and locked, the role judged and If-Match checked, once, inside the
 * transaction), edited through its draft and settings, then committed once (commit.ts). A writer
 * that throws aborts it: the transaction rolls back and nothing is written. What the writer needs
 * of the zone, the role or a record it reads from the handle, never from a variable of its own
 * filled in by a callback.
 */
import type { Role } from '../../../core/roles';
import type { Slicer } from '../../../core/pause';
import type { DomainRow, Repos, ServiceRepos } from '../../../store/types';
import type { Blame, ZoneDraft } from '../zone-draft';
import { commitUpdate } from './commit';
import type { Actor, Committed, Edit, KeyStep, Settings, TransferredRow, WriteOptions } from './types';

export class ZoneUpdate implements Edit {
  /** The zone's settings as the change sets them (SOA timers, DNSSEC); unset ones stay. */
  readonly settings: Partial<Settings> = {};
  keys?: KeyStep;
  touch?: boolean;
  transfer?: TransferredRow;
  blame?: Blame;
  /** The transaction as writers see it: without the zone writer, which only the commit uses. */
  readonly tx: ServiceRepos;
  private done?: Committed;

  constructor(
    private readonly writer: Repos,
    /** The zone as the change set locked it (`Committed.zone` is the row after the commit). */
    readonly zone: DomainRow,
    /** The actor's role on the zone, judged on the locked row (`owner` for the admin CLI). */
    readonly role: Role,
    /** Who makes the change (the zone's owner's name for the admin CLI). */
    readonly actor: Actor,
    readonly draft: ZoneDraft,
    private readonly opts: WriteOptions,
    private readonly maxRecords: number,
    /** The time of the change (serial date, updated_at, history). */
    readonly now: Date,
  ) {
    this.tx = writer;
  }

  /** A writer's yield point between items of a long loop: the event loop turns, and a client gone stops the change. */
  get slice(): Slicer {
    return this.draft.slice;
  }

  /** What the commit wrote; undefined until then. */
  get committed(): Committed | undefined {
    return this.done;
  }

  /**
   * Judges and writes the change (scope, role, the zone's rules, the record cap, the serial, the
   * history), once; answers what was written (a change set with id null when nothing changed).
   * A writer that needs none of it leaves the commit to the change set, which makes it on return.
   */
  async commit(): Promise<Committed> {
    if (this.done) throw new Error(`the change set of ${this.zone.name} is committed already`);
    this.done = await commitUpdate(this.writer, this, this.opts, this.maxRecords);
    return this.done;
  }
}
