/**
 * Query keys of domain data. `['domains', name]` is one zone and `['domains', name, 'records']`
 * its records, so a change to a zone can refresh exactly its own data. Lists live under
 * `['domains', 'list']`; no zone can be called "list" (zone names have two labels or more).
 */
export const domainKeys = {
  all: ['domains'] as const,
  lists: ['domains', 'list'] as const,
  list: (search: string, page: number) => ['domains', 'list', { search, page }] as const,
  detail: (name: string) => ['domains', name] as const,
  records: (name: string) => ['domains', name, 'records'] as const,
  /** The delegation of a zone in its parent, when the user holds the parent here too. */
  parentDelegation: (name: string) => ['domains', name, 'parent-delegation'] as const,
};
