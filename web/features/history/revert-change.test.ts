import { describe, expect, it } from 'vitest';
import { revertRefusal } from './revert-change';

describe('revertRefusal', () => {
  const cs = { serial_before: 2026112301, added_count: 1, removed_count: 0, settings: {} };
  it('offers a revert for record and setting changes', () => {
    expect(revertRefusal(cs)).toBeNull();
    expect(revertRefusal({ ...cs, added_count: 0, settings: { minimum_ttl: [3600, 300] } })).toBeNull();
  });

  it('says why the zone’s creation, a key rollover or a bare serial bump cannot be reverted', () => {
    expect(revertRefusal({ ...cs, serial_before: 0 })).toBe('Zone created');
    expect(revertRefusal({ ...cs, added_count: 0, settings: { dnssec_keys: ['1', 'rollover started'] } })).toMatch(/rollover/);
    expect(revertRefusal({ ...cs, added_count: 0 })).toBe('Nothing to revert');
  });
});
