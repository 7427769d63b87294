/**
 * What every zone write of the API carries into its change set: who made it
 * (the user and `token:<id>`, or `session` from the dashboard), the `If-Match` serial that
 * guards it, and `?dry_run=true`.
 */
import { settingsWithLists } from '../../core/zone-transfers';
import type { Context } from 'hono';
import { z } from '@hono/zod-openapi';
import { Invalid } from '../../core/errors';
import { DASHBOARD_HEADER, DASHBOARD_MARK } from '../../http/dashboard-mark';
import type { Applied, ChangeSet, WriteOptions } from '../../services/changes/change-sets';
import type { ApiEnv } from '../auth';

export const writeQuery = {
  dry_run: z
    .enum(['true', 'false', '1', '0'], { error: 'must be true or false' })
    .optional()
    .openapi({ param: { name: 'dry_run', in: 'query' }, description: 'true: validate and answer the change set that would be applied (id null), changing nothing' }),
};

export const writeHeaders = z.object({
  'if-match': z
    .string()
    .optional()
    .openapi({
      param: { name: 'if-match', in: 'header' },
      example: '"2026112301"',
      description: 'The zone serial the change was made against (its ETag); a stale one answers 412 and changes nothing',
    }),
});

/** `"2026112301"`, `2026112301`, `W/"…"` or `*`. */
export function parseIfMatch(raw: string | undefined): number | '*' | undefined {
  if (raw === undefined) return undefined;
  const v = raw.trim();
  if (v === '*') return '*';
  const m = /^(?:W\/)?"?([0-9]{1,12})"?$/.exec(v);
  if (!m) throw new Invalid({ 'If-Match': 'must be the zone serial from its ETag, e.g. "2026112301"' });
  return Number(m[1]);
}

export function writeOptions(c: Context<ApiEnv>, comment?: string): WriteOptions {
  const { user, token, scope } = c.get('principal');
  const dashboard = c.req.header(DASHBOARD_HEADER) === DASHBOARD_MARK;
  const dry = c.req.query('dry_run');
  if (dry !== undefined && !['true', 'false', '1', '0'].includes(dry)) throw new Invalid({ dry_run: 'must be true or false' });
  return {
    source: dashboard ? 'dashboard' : 'api',
    // The token's scope decides which RRsets it may change, checked in the change set.
    actor: { username: user.username, userId: user.id, credential: dashboard ? 'session' : `token:${token.id}`, scope },
    ifMatch: parseIfMatch(c.req.header('if-match')),
    dryRun: dry === 'true' || dry === '1',
    comment,
  };
}

/**
 * A change set as the API answers it: TTLs as strings, like records; with `limit`, at most that
 * many records of each side (the counts say how many there are).
 */
export function changeView(cs: ChangeSet & { added_count?: number; removed_count?: number }, limit = Infinity) {
  // A disabled record (kept, not served) says so; a served one has no `disabled` field (the shape of the interface specification).
  const rec = (r: { name: string; record_type: string; ttl: number; content: string; disabled?: boolean }) =>
    r.disabled
      ? { name: r.name, record_type: r.record_type, ttl: String(r.ttl), content: r.content, disabled: true as const }
      : { name: r.name, record_type: r.record_type, ttl: String(r.ttl), content: r.content };
  return {
    id: cs.id,
    serial_before: cs.serial_before,
    serial_after: cs.serial_after,
    created_at: cs.created_at,
    source: cs.source,
    actor: cs.actor,
    comment: cs.comment,
    added: cs.added.slice(0, limit).map(rec),
    removed: cs.removed.slice(0, limit).map(rec),
    added_count: cs.added_count ?? cs.added.length,
    removed_count: cs.removed_count ?? cs.removed.length,
    settings: settingsWithLists(cs.settings),
    // Only a change of a batch says so: the shape of the interface specification stays as it was for the rest.
    ...(cs.batch ? { batch: cs.batch } : {}),
  };
}

/** The zone's serial as an entity tag. */
export const etag = (serial: number) => `"${serial}"`;

/**
 * A write's answer: the change set that would be applied for a dry run, else `view()` of what
 * was written; the zone's serial after it as the ETag, for the next If-Match.
 */
export function writeAnswer<T>(c: Context, opts: WriteOptions, applied: Applied<T>, view: (a: Applied<T>) => unknown) {
  c.header('ETag', etag(opts.dryRun ? applied.change.serial_before : applied.zone.serial_number));
  return c.json((opts.dryRun ? changeView(applied.change) : view(applied)) as never, 200);
}
