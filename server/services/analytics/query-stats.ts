/**
 * Per-zone query statistics as the API reads them: a zone's series and its top lists, every
 * node's rows summed (stats-recorder.ts stores them).
 */
import { STAT_FIELDS, type StatCounts, type TopKind } from '../../core/query-stats-fields';
import { Invalid } from '../../core/errors';
import type { ReadStore } from '../../store/types';
import { MINUTE_ROWS_SECONDS } from './stats-recorder';

const countsOf = (a: readonly number[]): StatCounts => {
  const out = {} as StatCounts;
  for (let i = 0; i < STAT_FIELDS.length; i++) out[STAT_FIELDS[i]!] = a[i] ?? 0;
  return out;
};

export interface SeriesQuery {
  from?: string;
  to?: string;
  step?: number;
}

/** Steps the dashboard and a default choose from: the smallest that gives at most 360 points. */
const STEPS = [60, 300, 900, 3600, 3 * 3600, 6 * 3600, 86400];
export const MAX_POINTS = 1440;

function instant(field: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const t = Date.parse(text);
  if (!/^\d{4}-\d\d-\d\dT/.test(text) || Number.isNaN(t)) throw Invalid.field(field, 'must be a time in ISO 8601, like 2026-11-26T09:00:00Z');
  return Math.floor(t / 1000);
}

export type SeriesPoint = { at: string } & StatCounts;
export interface Series {
  from: string;
  to: string;
  step: number;
  points: SeriesPoint[];
  totals: StatCounts;
}

const iso = (s: number) => new Date(s * 1000).toISOString();

/** A zone's counts per `step` seconds from `from` to `to` (default: the last hour by minute), every node's summed, empty steps as zeros. */
export async function zoneSeries(store: ReadStore, zoneId: number, q: SeriesQuery, now = Date.now()): Promise<Series> {
  const nowS = Math.floor(now / 1000);
  let to = instant('to', q.to, nowS);
  let from = instant('from', q.from, to - 3600);
  if (from >= to) throw Invalid.field('from', 'must be before to');
  // Minute rows reach back 48 h; before that only hourly rows remain.
  const hourly = from < nowS - MINUTE_ROWS_SECONDS + 60;
  const resolution = hourly ? 3600 : 60;
  const step = q.step ?? STEPS.find((s) => s >= resolution && (to - from) / s <= 360) ?? 86400;
  if (step % resolution !== 0) {
    throw Invalid.field('step', hourly ? 'must be a multiple of 3600 for a range that reaches back more than 48 hours (only hourly counts are kept)' : 'must be a multiple of 60 seconds');
  }
  from = Math.floor(from / step) * step;
  to = Math.ceil(to / step) * step;
  if ((to - from) / step > MAX_POINTS) throw Invalid.field('step', `too small for this range: at most ${MAX_POINTS} points`);
  const rows = await store.queryStats.series(zoneId, resolution, from, to, step);
  const byAt = new Map(rows.map((r) => [r.at, r]));
  const totals = countsOf([]);
  const points: SeriesPoint[] = [];
  for (let at = from; at < to; at += step) {
    const r = byAt.get(at);
    const counts = r ? countsOf(STAT_FIELDS.map((f) => r[f])) : countsOf([]);
    for (const f of STAT_FIELDS) totals[f] += counts[f];
    points.push({ at: iso(at), ...counts });
  }
  return { from: iso(from), to: iso(to), step, points, totals };
}

/** A zone's most asked names (or NXDOMAIN names) over whole hours from `from` to `to` (default: the last 24 h). */
export async function zoneTop(
  store: ReadStore,
  zoneId: number,
  q: { kind: TopKind; from?: string; to?: string; limit?: number },
  now = Date.now(),
): Promise<{ kind: TopKind; from: string; to: string; names: Array<{ name: string; count: number }> }> {
  const nowS = Math.floor(now / 1000);
  let to = instant('to', q.to, nowS);
  let from = instant('from', q.from, to - 86400);
  if (from >= to) throw Invalid.field('from', 'must be before to');
  from = Math.floor(from / 3600) * 3600;
  to = Math.ceil(to / 3600) * 3600;
  const names = await store.queryStats.top(zoneId, q.kind, from, to, q.limit ?? 20);
  return { kind: q.kind, from: iso(from), to: iso(to), names };
}
