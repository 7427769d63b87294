/**
 * IPs: the user's registered addresses and ranges. Unfiltered, it pages exactly as the API
 * does (X-Total-Count, X-Page, X-Per-Page). The API cannot filter by family or status, so a
 * filter loads every IP once and pages the matches here.
 */
import { useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useSetFilters, type FilterValue } from '../../lib/page-param';
import { useAllIps } from '../../lib/list-all-ips';
import { useIpsPage } from '../../features/ips/list-ips';
import { useIpUsage } from '../../features/ips/get-ip-usage';
import { IpsTable } from '../../features/ips/ips-table';
import { SelectField } from '../../ui/field';
import { Pagination } from '../../ui/pagination';
import { EmptyState, ErrorState, LoadingState } from '../../ui/states';
import { usePageTitle } from '../../lib/page-title';

const PER_PAGE = [10, 25, 50, 100];

function intParam(v: string | null, fallback: number, allowed?: number[]): number {
  const n = Number(v);
  if (!v || !Number.isInteger(n) || n < 1) return fallback;
  return allowed && !allowed.includes(n) ? fallback : n;
}

export function Component() {
  usePageTitle('IP addresses');
  const [params] = useSearchParams();
  const setFilters = useSetFilters();
  const page = intParam(params.get('page'), 1);
  const perPage = intParam(params.get('per_page'), 50, PER_PAGE);
  const family = params.get('family') ?? 'all';
  const status = params.get('status') ?? 'all';
  const filtered = family !== 'all' || status !== 'all';

  const paged = useIpsPage(page, perPage, !filtered);
  const all = useAllIps(filtered);
  const usage = useIpUsage();
  const q = filtered ? all : paged;

  const view = useMemo(() => {
    if (filtered) {
      if (!all.data) return undefined;
      const matches = all.data.filter((ip) => (family === 'all' || (family === 'ipv4' ? ip.ipv4 : ip.ipv6)) && (status === 'all' || (status === 'active') === ip.active));
      return { items: matches.slice((page - 1) * perPage, page * perPage), total: matches.length, page, perPage, of: all.data.length };
    }
    return paged.data ? { ...paged.data, of: paged.data.total } : undefined;
  }, [filtered, all.data, paged.data, family, status, page, perPage]);

  // "All" is no filter at all.
  const set = (changes: Record<string, FilterValue>) => setFilters(Object.fromEntries(Object.entries(changes).map(([k, v]) => [k, v === 'all' ? null : v])));

  return (
    <div className="page">
      <header className="page-header">
        <div>
          <h1>IP addresses</h1>
          <p className="muted">Addresses and ranges registered to your account, and the records of your zones that point into them.</p>
        </div>
      </header>

      <section className="card" aria-label="IP addresses">
        <form className="toolbar" role="search" aria-label="Filter IPs" onSubmit={(e) => e.preventDefault()}>
          <SelectField label="Family" value={family} onChange={(e) => set({ family: e.target.value })}>
            <option value="all">All</option>
            <option value="ipv4">IPv4</option>
            <option value="ipv6">IPv6</option>
          </SelectField>
          <SelectField label="Status" value={status} onChange={(e) => set({ status: e.target.value })}>
            <option value="all">All</option>
            <option value="active">Active</option>
            <option value="inactive">Inactive</option>
          </SelectField>
          <SelectField label="Per page" value={String(perPage)} onChange={(e) => set({ per_page: e.target.value === '50' ? null : e.target.value })}>
            {PER_PAGE.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </SelectField>
          {filtered && view ? (
            <p className="toolbar-note muted">
              {view.total} of {view.of} IPs match
            </p>
          ) : null}
        </form>

        {q.isPending ? (
          <LoadingState label="Loading IPs…" />
        ) : q.isError ? (
          <ErrorState error={q.error} retry={() => void q.refetch()} title="Could not load your IPs" />
        ) : !view || view.of === 0 ? (
          <EmptyState title="No IPs registered yet">
            An administrator registers them with <code>npm run cli -- ips add &lt;user&gt; &lt;address-or-cidr&gt;</code>.
          </EmptyState>
        ) : view.items.length === 0 && view.total === 0 ? (
          <EmptyState title="No IPs match these filters" />
        ) : (
          <>
            <IpsTable ips={view.items} usage={usage.data} usageFailed={usage.isError} />
            <Pagination page={view.page} perPage={view.perPage} total={view.total} onPage={(p) => set({ page: p })} label="IP pages" />
          </>
        )}
      </section>
    </div>
  );
}
