import { describe, expect, it } from 'vitest';
import type { DnsRecord } from '../../lib/api-types';
import { filterAndSort } from './record-order';

const r = (id: number, name: string, record_type: string, content: string, ttl = '3600'): DnsRecord => ({
  id,
  name,
  record_type,
  content,
  ttl,
  fqdn: name === '@' ? 'example.com' : `${name}.example.com`,
});
const list = [r(1, 'www', 'A', '192.0.2.2'), r(2, '@', 'NS', 'ns1.example.net'), r(3, 'mail', 'A', '192.0.2.1', '300'), r(4, 'www', 'AAAA', '2001:db8::1'), r(5, '@', 'MX', '10 mail.example.com')];

describe('filterAndSort', () => {
  it('puts the apex first, then names, then types', () => {
    expect(filterAndSort(list, '', '', { key: 'name', dir: 1 }).map((x) => x.id)).toEqual([5, 2, 3, 1, 4]);
  });

  it('sorts by any column both ways, numbers as numbers', () => {
    expect(filterAndSort(list, '', '', { key: 'ttl', dir: 1 })[0]!.id).toBe(3);
    expect(filterAndSort(list, '', '', { key: 'name', dir: -1 })[0]!.name).toBe('www');
  });

  it('filters by part of the name, "@" for the apex, and by type', () => {
    expect(filterAndSort(list, 'WW', '', { key: 'name', dir: 1 }).map((x) => x.id)).toEqual([1, 4]);
    expect(filterAndSort(list, '@', '', { key: 'name', dir: 1 }).map((x) => x.id)).toEqual([5, 2]);
    expect(filterAndSort(list, '', 'A', { key: 'name', dir: 1 }).map((x) => x.id)).toEqual([3, 1]);
  });
});
