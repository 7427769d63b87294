/**
 * A zone's queries over the last 24 hours as a small line (hourly points) for the domain list:
 * plain SVG, so the list needs none of the chart library.
 */
import { useQuery } from '@tanstack/react-query';
import { request } from '../lib/api-client';
import type { QuerySeries } from '../lib/api-types';
import { formatNumber } from '../lib/format';
import { bff } from '../lib/paths';
import { domainKeys } from '../lib/domain-keys';
import './zone-sparkline.css';

const W = 80;
const H = 20;

export function ZoneSparkline({ zone }: { zone: string }) {
  const q = useQuery({
    queryKey: domainKeys.stats(zone, 'sparkline'),
    queryFn: ({ signal }) => request<QuerySeries>('GET', bff.stats(zone), { query: { from: new Date(Date.now() - 86400_000).toISOString(), step: 3600 }, signal }),
    staleTime: 60_000,
    refetchInterval: 5 * 60_000,
  });
  if (!q.data) return <span className="muted small">Traffic</span>;
  const values = q.data.points.map((p) => p.queries);
  const max = Math.max(1, ...values);
  const step = values.length > 1 ? W / (values.length - 1) : W;
  const points = values.map((v, i) => `${(i * step).toFixed(1)},${(H - 1 - (v / max) * (H - 2)).toFixed(1)}`).join(' ');
  const total = q.data.totals.queries;
  return (
    <span className="sparkline-cell" title={`${formatNumber(total)} queries in the last 24 hours`}>
      <svg className="sparkline" width={W} height={H} viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`${formatNumber(total)} queries in the last 24 hours`}>
        <polyline points={points} fill="none" stroke="currentColor" strokeWidth="1.5" />
      </svg>{' '}
      <span className="mono small">{formatNumber(total)}</span>
    </span>
  );
}
