import { describe, expect, it } from 'vitest';
import { zoneAccess } from './zone-access';

describe('zoneAccess', () => {
  it('gives a user everything on their own zone, with no team badge', () => {
    expect(zoneAccess({})).toEqual({ records: true, settings: true, remove: true });
  });

  it('narrows a team zone by the member’s role', () => {
    expect(zoneAccess({ team: 'web', role: 'owner' })).toEqual({ records: true, settings: true, remove: true, badge: 'Team web · owner' });
    expect(zoneAccess({ team: 'web', role: 'admin' })).toEqual({ records: true, settings: true, remove: false, badge: 'Team web · admin' });
    expect(zoneAccess({ team: 'web', role: 'editor' })).toEqual({ records: true, settings: false, remove: false, badge: 'Team web · editor' });
    expect(zoneAccess({ team: 'web', role: 'viewer' })).toEqual({ records: false, settings: false, remove: false, badge: 'Team web · viewer' });
  });

  it('keeps every write off a secondary zone, with the reason naming its primaries, but lets its owner delete it', () => {
    expect(zoneAccess({ kind: 'secondary', primaries: ['192.0.2.1:53'] })).toEqual({
      records: false,
      settings: false,
      remove: true,
      readOnlyReason: 'Records come from 192.0.2.1:53 by zone transfer; change them on the primary.',
    });
    expect(zoneAccess({ kind: 'secondary', primaries: [], team: 'web', role: 'editor' }).remove).toBe(false);
  });

  it("offers an administrator reading another account's zone nothing to change, and says whose it is", () => {
    expect(zoneAccess({ role: 'viewer', held_by: 'alice', administrator_view: true })).toEqual({
      records: false,
      settings: false,
      remove: false,
      badge: 'alice · read only to you',
      heldBy: 'alice',
    });
  });
});
