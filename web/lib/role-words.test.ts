import { describe, expect, it } from 'vitest';
import type { Team } from './api-types';
import { canManageMembers, ownerChoices, ROLE_WORDS, ROLES } from './role-words';

const team = (name: string, role: Team['role']): Team => ({ name, role, members: 1, zones: 0, created_at: '2026-01-01T00:00:00Z' });

describe('ownerChoices', () => {
  it('offers the teams where the user is an owner or admin, by name', () => {
    expect(ownerChoices([team('web', 'admin'), team('ops', 'owner'), team('dev', 'editor'), team('audit', 'viewer'), team('other', null)])).toEqual(['ops', 'web']);
    expect(ownerChoices([])).toEqual([]);
  });
});

describe('canManageMembers', () => {
  it('lets owners (and administrators of the service) manage members, nobody else', () => {
    expect(canManageMembers('owner', false)).toBe(true);
    expect(canManageMembers('admin', false)).toBe(false);
    expect(canManageMembers('viewer', false)).toBe(false);
    expect(canManageMembers(null, false)).toBe(false);
    expect(canManageMembers(null, true)).toBe(true);
  });
});

describe('ROLE_WORDS', () => {
  it('explains every role', () => {
    expect(Object.keys(ROLE_WORDS).sort()).toEqual([...ROLES].sort());
  });
});
