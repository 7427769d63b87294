import { describe, expect, it } from 'vitest';
import { canonicalAllowTransfer, canonicalAlsoNotify, transferList } from './zone-transfers';

describe('a zone’s own transfer lists', () => {
  it('writes NOTIFY targets and networks in one canonical form', () => {
    expect(canonicalAlsoNotify([' 192.0.2.1:53', '[2001:DB8:0:0::1]:5300'])).toEqual(['192.0.2.1:53', '[2001:db8::1]:5300']);
    expect(canonicalAllowTransfer(['192.0.2.0/24', '2001:DB8::/32', '198.51.100.7'])).toEqual(['192.0.2.0/24', '2001:db8::/32', '198.51.100.7']);
  });

  it.each(['ns1.example.net:53', '192.0.2.1', '[192.0.2.1]:53', '2001:db8::1:53', '010.0.0.1:53', '192.0.2.1:0', '192.0.2.1:65536', '[fe80::1%eth0]:53'])('refuses the NOTIFY target %s', (t) => {
    expect(() => canonicalAlsoNotify([t])).toThrow();
  });

  it.each(['any', '192.0.2.0/33', '2001:db8::/129', '192.0.2.0/24/8', '192.0.2.0/'])('refuses the network %s', (n) => {
    expect(() => canonicalAllowTransfer([n])).toThrow();
  });

  it('refuses duplicates (after canonical form) and long lists', () => {
    expect(() => canonicalAlsoNotify(['[2001:db8::1]:53', '[2001:DB8::0:1]:53'])).toThrow(/twice/);
    expect(() => canonicalAllowTransfer(['192.0.2.1', '192.0.2.1'])).toThrow(/twice/);
    expect(() => canonicalAlsoNotify(Array.from({ length: 21 }, (_, i) => `192.0.2.${i}:53`))).toThrow(/at most 20/);
    expect(() => canonicalAllowTransfer(Array.from({ length: 51 }, (_, i) => `10.0.${i}.0/24`))).toThrow(/at most 50/);
  });

  it('reads a stored list back, absent as empty', () => {
    expect(transferList(undefined)).toEqual([]);
    expect(transferList('["192.0.2.1:53"]')).toEqual(['192.0.2.1:53']);
  });
});
