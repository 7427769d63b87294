/** The card's badge: pending until the parent lists exactly our name servers, and never "active" on no answer. */
import { describe, expect, it } from 'vitest';
import { delegationState } from './delegation-words';
import type { Delegation } from './get-delegation';

const base: Delegation = {
  checked_at: '2026-11-26T10:00:00.000Z',
  resolver: '127.0.0.1:53',
  resolver_status: 'recursive',
  parent_zone: 'test',
  parent_servers: ['ns.test'],
  asked: 'ns.test (192.0.2.53)',
  parent: { ns: ['ns1.zonedeck.test'], ds: [] },
  expected: { ns: ['ns1.zonedeck.test'], ds: [] },
  ns_match: true,
  ds_status: 'unsigned',
  nameservers: [],
};

describe('delegationState', () => {
  it('says Active, Pending, No answer or Not checked', () => {
    expect(delegationState(base).text).toBe('Active');
    expect(delegationState({ ...base, ns_match: false, parent: { ns: ['ns.elsewhere.example'], ds: [] } }).text).toBe('Pending');
    expect(delegationState({ ...base, ns_match: false, parent: null }).text).toBe('No answer');
    expect(delegationState({ ...base, resolver: null, parent: null, ns_match: false }).text).toBe('Not checked');
  });

  it('never says Active through a resolver that does not recurse', () => {
    expect(delegationState({ ...base, resolver_status: 'not_recursive' })).toEqual({ text: 'Resolver does not recurse', tone: 'danger' });
    expect(delegationState({ ...base, resolver_status: 'not_recursive', parent: null, ns_match: false }).text).toBe('Resolver does not recurse');
  });
});
