/**
 * A zone's traffic: queries per second stacked by answer, totals by answer and
 * transport, the query types, and the most asked names and NXDOMAIN names (each a link into the
 * record editor: to the records at that name, or to add the missing one). 1 h / 24 h / 7 d / 30 d;
 * refreshed every 30 s.
 */
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { useDomain } from '../../features/domains/get-domain';
import { zoneAccess } from '../../features/domains/zone-access';
import { ZoneNotFound, ZonePageHeader } from '../../features/domains/zone-page-header';
import { RANGES, useStats, useTopNames, type Range } from '../../features/traffic/get-stats';
import { CATEGORIES, TrafficChart } from '../../features/traffic/traffic-chart';
import { ApiError } from '../../lib/api-client';
import type { QuerySeries, TopNames } from '../../lib/api-types';
import { formatNumber } from '../../lib/format';
import { usePageTitle } from '../../lib/page-title';
import { routes } from '../../lib/paths';
import { ErrorState, LoadingState } from '../../ui/states';
import '../../features/traffic/traffic.css';

const RANGE_LABELS: Record<Range, string> = { '1h': 'Last hour', '24h': 'Last 24 hours', '7d': 'Last 7 days', '30d': 'Last 30 days' };
const QTYPE_PREFIX = 'qtype_';

/** The name as the record editor names it: relative to the zone, `@` at the apex. */
function relative(name: string, zone: string): string {
  if (name === zone) return '@';
  return name.endsWith(`.${zone}`) ? name.slice(0, -zone.length - 1) : name;
}

const percent = (n: number, of: number) => (of === 0 ? '0%' : `${((100 * n) / of).toFixed(n * 1000 < of ? 1 : 0)}%`);

function Totals({ totals }: { totals: QuerySeries['totals'] }) {
  const rows: Array<[string, number]> = [
    ['Queries', totals.queries],
    ...CATEGORIES.map((c) => [c.label, totals[c.field]] as [string, number]),
    ['UDP', totals.udp],
    ['TCP', totals.tcp],
    ['DNSSEC OK (DO)', totals.dnssec_ok],
    ['Truncated (TC)', totals.truncated],
  ];
  return (
    <dl className="traffic-totals" aria-label="Totals">
      {rows.map(([label, n]) => (
        <div key={label} data-testid={`total-${label}`}>
          <dt>{label}</dt>
          <dd className="mono">{formatNumber(n)}</dd>
        </div>
      ))}
    </dl>
  );
}

function Qtypes({ totals }: { totals: QuerySeries['totals'] }) {
  const types = Object.entries(totals)
    .filter(([k, n]) => k.startsWith(QTYPE_PREFIX) && n > 0)
    .map(([k, n]) => [k.slice(QTYPE_PREFIX.length).toUpperCase(), n] as const)
    .sort((a, b) => b[1] - a[1]);
  if (types.length === 0) return <p className="muted">No queries in this range.</p>;
  return (
    <table className="table" aria-label="Queries by type">
      <thead>
        <tr>
          <th scope="col">Type</th>
          <th scope="col" className="num">
            Queries
          </th>
          <th scope="col" className="num">
            Share
          </th>
        </tr>
      </thead>
      <tbody>
        {types.map(([t, n]) => (
          <tr key={t}>
            <td className="mono">{t === 'OTHER' ? 'other' : t}</td>
            <td className="num mono">{formatNumber(n)}</td>
            <td className="num">
              <span className="share-bar" style={{ width: `${Math.max(2, (60 * n) / totals.queries)}px` }} aria-hidden="true" /> {percent(n, totals.queries)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function TopList({ zone, top, kind, canWrite }: { zone: string; top: TopNames | undefined; kind: 'names' | 'nxdomain'; canWrite: boolean }) {
  const title = kind === 'names' ? 'Top names' : 'Top NXDOMAIN names';
  if (!top) return <LoadingState />;
  return (
    <section className="card" aria-label={title}>
      <h2>{title}</h2>
      {top.names.length === 0 ? (
        <p className="muted">{kind === 'names' ? 'No queries in this range.' : 'No queries for missing names in this range.'}</p>
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col" className="num">
                Queries
              </th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {top.names.map((n) => (
              <tr key={n.name}>
                <td className="mono">{n.name}</td>
                <td className="num mono">{formatNumber(n.count)}</td>
                <td className="actions">
                  {kind === 'names' ? (
                    <Link to={`${routes.domain(zone)}?name=${encodeURIComponent(relative(n.name, zone))}`} aria-label={`Records at ${n.name}`}>
                      Records
                    </Link>
                  ) : canWrite ? (
                    <Link to={`${routes.domain(zone)}?name=${encodeURIComponent(relative(n.name, zone))}`} aria-label={`Add a record at ${n.name}`}>
                      Add a record
                    </Link>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

export function Component() {
  const name = useParams().name ?? '';
  usePageTitle(name, 'Traffic');
  const [params, setParams] = useSearchParams();
  const range: Range = (params.get('range') as Range) in RANGES ? (params.get('range') as Range) : '1h';
  const domain = useDomain(name);
  const stats = useStats(name, range);
  const names = useTopNames(name, 'names', range);
  const nxdomain = useTopNames(name, 'nxdomain', range);

  if (domain.isError && domain.error instanceof ApiError && domain.error.status === 404) {
    return <ZoneNotFound name={name} />;
  }
  const access = domain.data ? zoneAccess(domain.data) : undefined;
  const s = stats.data;

  return (
    <div className="page">
      <ZonePageHeader name={name} view="Traffic" access={access}>
        <p className="muted">The queries this zone answered, from every node, by answer, transport and type. Refreshed every 30 seconds.</p>
      </ZonePageHeader>

      <section className="card" aria-label={`Traffic of ${name}`}>
        <div className="card-header">
          <h2>Queries per second</h2>
          <div className="segmented" role="group" aria-label="Time range">
            {(Object.keys(RANGES) as Range[]).map((r) => (
              <button key={r} type="button" className="btn btn-small" aria-pressed={r === range} onClick={() => setParams({ range: r }, { replace: true })}>
                {RANGE_LABELS[r]}
              </button>
            ))}
          </div>
        </div>
        {stats.isError ? (
          <ErrorState error={stats.error} retry={() => void stats.refetch()} />
        ) : !s ? (
          <LoadingState label="Loading the traffic…" />
        ) : (
          <>
            <TrafficChart series={s} label={`Queries per second to ${name}, ${RANGE_LABELS[range].toLowerCase()}, stacked by answer: ${formatNumber(s.totals.queries)} queries in all`} />
            <Totals totals={s.totals} />
          </>
        )}
      </section>

      <div className="traffic-grid">
        <section className="card" aria-label="Query types">
          <h2>Query types</h2>
          {s ? <Qtypes totals={s.totals} /> : <LoadingState />}
        </section>
        <TopList zone={name} top={names.data} kind="names" canWrite={access?.records ?? false} />
        <TopList zone={name} top={nxdomain.data} kind="nxdomain" canWrite={access?.records ?? false} />
      </div>
    </div>
  );
}
