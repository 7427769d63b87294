import { describe, expect, it } from 'vitest';
import type { DnsRecord } from '../../lib/api-types';
import { isSelectable, removalsOf, selectAllState, selectedRecords, withAllShown } from './record-selection';

const r = (id: number, name: string, record_type: string, content: string): DnsRecord => ({ id, name, record_type, content, ttl: '300', fqdn: name === '@' ? 'example.com' : `${name}.example.com` });
const ns = r(1, '@', 'NS', 'ns1.zonedeck.test');
const www1 = r(2, 'www', 'A', '192.0.2.1');
const mx = r(3, '@', 'MX', '10 mail.example.net');
const www2 = r(4, 'www', 'A', '192.0.2.2');
const www6 = r(5, 'www', 'AAAA', '2001:db8::1');
const list = [ns, www1, mx, www2, www6];

describe('record selection', () => {
  it('never offers the managed apex NS set or a row still being saved', () => {
    expect(isSelectable(ns)).toBe(false);
    expect(isSelectable(r(-1, 'new', 'A', '192.0.2.9'))).toBe(false);
    expect(isSelectable(mx)).toBe(true);
    expect(selectedRecords(list, new Set([1, 2, 99]))).toEqual([www1]);
  });

  it('selects all shown rows, and reads as mixed when only some are', () => {
    const all = withAllShown(list, new Set(), true);
    expect([...all].sort()).toEqual([2, 3, 4, 5]);
    expect(selectAllState(list, all)).toBe('all');
    expect(selectAllState(list, new Set([3]))).toBe('some');
    expect(selectAllState(list, new Set([1]))).toBe('none');
    // Unticking "all shown" under a filter keeps what the filter hides.
    expect([...withAllShown([www1, www2], all, false)].sort()).toEqual([3, 5]);
  });

  it('groups the chosen records into one REMOVE per name and type', () => {
    expect(removalsOf([www1, mx, www2, www6])).toEqual([
      { name: 'www', record_type: 'A', changetype: 'REMOVE', records: ['192.0.2.1', '192.0.2.2'] },
      { name: '@', record_type: 'MX', changetype: 'REMOVE', records: ['10 mail.example.net'] },
      { name: 'www', record_type: 'AAAA', changetype: 'REMOVE', records: ['2001:db8::1'] },
    ]);
  });
});
