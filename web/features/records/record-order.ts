/** Filtering and sorting the records of a zone in the browser (10,000 rows stay instant). */
import type { DnsRecord } from '../../lib/api-types';

export type SortKey = 'name' | 'record_type' | 'content' | 'ttl';
export interface Sort {
  key: SortKey;
  dir: 1 | -1;
}

// The apex sorts first, then names in text order.
const nameKey = (r: DnsRecord) => (r.name === '@' ? '' : r.name);

function compare(a: DnsRecord, b: DnsRecord, key: SortKey): number {
  switch (key) {
    case 'ttl':
      return Number(a.ttl) - Number(b.ttl);
    case 'name': {
      const x = nameKey(a);
      const y = nameKey(b);
      return x < y ? -1 : x > y ? 1 : 0;
    }
    default: {
      const x = a[key];
      const y = b[key];
      return x < y ? -1 : x > y ? 1 : 0;
    }
  }
}

const TIE_BREAK: SortKey[] = ['name', 'record_type', 'content'];

export function filterAndSort(records: readonly DnsRecord[], nameFilter: string, typeFilter: string, sort: Sort): DnsRecord[] {
  const needle = nameFilter.trim().toLowerCase();
  const apex = needle === '@';
  const out = records.filter((r) => (typeFilter === '' || r.record_type === typeFilter) && (needle === '' || (apex ? r.name === '@' : r.fqdn.includes(needle))));
  out.sort((a, b) => {
    const first = compare(a, b, sort.key) * sort.dir;
    if (first !== 0) return first;
    for (const k of TIE_BREAK) {
      const c = compare(a, b, k);
      if (c !== 0) return c;
    }
    return a.id - b.id;
  });
  return out;
}
