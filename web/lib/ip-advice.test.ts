import { describe, expect, it } from 'vitest';
import type { Ip } from './api-types';
import { adviceHint, adviceText, ipAdvice, ipSuggestions } from './ip-advice';

const ip = (address: string, cidr: number, first: string, last: string, active = true, id = 1): Ip => ({
  id,
  address,
  cidr,
  first,
  last,
  active,
  ipv4: !address.includes(':'),
  ipv6: address.includes(':'),
});
const ips = [
  ip('198.51.100.0', 24, '198.51.100.0', '198.51.100.255'),
  ip('198.51.100.128', 25, '198.51.100.128', '198.51.100.255', false, 2),
  ip('203.0.113.0', 24, '203.0.113.0', '203.0.113.255', false, 3),
  ip('2001:db8::1', 128, '2001:db8::1', '2001:db8::1', true, 4),
];

describe('ipAdvice', () => {
  it('is quiet inside an active range, even when an inactive one also holds the address', () => {
    const a = ipAdvice('198.51.100.200', ips, 'A');
    expect(a).toMatchObject({ kind: 'ok', range: { id: 1 } });
    expect(adviceText(a)).toBeUndefined();
    expect(adviceHint(a)).toBe('In your registered range 198.51.100.0/24.');
  });

  it('warns outside the registered IPs and inside inactive ones only', () => {
    expect(adviceText(ipAdvice('192.0.2.1', ips, 'A'))).toBe('This address is not in your registered IPs.');
    expect(adviceText(ipAdvice('203.0.113.7', ips, 'A'))).toBe('This address is in 203.0.113.0/24, which is inactive.');
    expect(adviceText(ipAdvice('2001:db8::2', ips, 'AAAA'))).toBe('This address is not in your registered IPs.');
  });

  it('says nothing when the user has no IPs (of that family) or has typed nothing', () => {
    expect(ipAdvice('192.0.2.1', [], 'A').kind).toBe('none');
    expect(ipAdvice('192.0.2.1', undefined, 'A').kind).toBe('none');
    expect(ipAdvice('2001:db8:1::1', ips.slice(0, 3), 'AAAA').kind).toBe('none');
    expect(adviceText(ipAdvice('192.0.2.1', ips.slice(3), 'A'))).toBeUndefined();
    expect(ipAdvice('', ips, 'A').kind).toBe('none');
  });

  it('suggests active addresses of the right family', () => {
    expect(ipSuggestions(ips, 'A').map((s) => s.value)).toEqual(['198.51.100.0']);
    expect(ipSuggestions(ips, 'AAAA')).toEqual([{ value: '2001:db8::1', label: 'registered address' }]);
  });
});
