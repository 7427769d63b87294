/**
 * Query keys of domain data. `['domains', name]` is one zone, `['domains', name, 'records']`
 * its records and `['domains', name, 'history']` its change sets, so a change to a zone can
 * refresh exactly its own data, or all of it by the prefix. Lists live under
 * `['domains', 'list']`; no zone can be called "list" (zone names have two labels or more).
 */
export const domainKeys = {
  all: ['domains'] as const,
  lists: ['domains', 'list'] as const,
  list: (search: string, page: number) => ['domains', 'list', { search, page }] as const,
  detail: (name: string) => ['domains', name] as const,
  records: (name: string) => ['domains', name, 'records'] as const,
  history: (name: string) => ['domains', name, 'history'] as const,
  changes: (name: string, filter: { source: string; username: string; page: number; perPage: number }) => ['domains', name, 'history', 'list', filter] as const,
  change: (name: string, id: number) => ['domains', name, 'history', 'change', id] as const,
  revertPreview: (name: string, id: number) => ['domains', name, 'history', 'revert-preview', id] as const,
  /** A zone's query statistics over a range (`1h`, `24h`, `7d`, `30d`), and its top names. */
  stats: (name: string, range: string) => ['domains', name, 'stats', range] as const,
  top: (name: string, kind: string, range: string) => ['domains', name, 'stats', 'top', kind, range] as const,
  /** The delegation of a zone in its parent, when the user holds the parent here too. */
  parentDelegation: (name: string) => ['domains', name, 'parent-delegation'] as const,
  /** The zone's DNSSEC keys, their states and the rollover in progress. */
  dnssec: (name: string) => ['domains', name, 'dnssec'] as const,
  /** The zone's health-checked pools, and one pool (by the id or name in its page's URL). */
  pools: (name: string) => ['domains', name, 'pools'] as const,
  pool: (name: string, pool: string) => ['domains', name, 'pools', pool] as const,
};
