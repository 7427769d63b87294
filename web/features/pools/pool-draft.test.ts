import { describe, expect, it } from 'vitest';
import type { Pool } from '../../lib/api-types';
import { draftOfPool, fieldMessage, newMember, newPoolDraft, poolBody } from './pool-draft';

describe('poolBody', () => {
  it('sends what the form holds in the API terms', () => {
    const d = newPoolDraft();
    d.name = ' www ';
    d.members = [newMember('192.0.2.1'), newMember('192.0.2.2', '2', '5')];
    d.check.expectBody = 'ok';
    const { body, errors } = poolBody(d);
    expect(errors).toEqual({});
    expect(body).toEqual({
      name: 'www',
      type: 'A',
      ttl: 30,
      policy: 'failover',
      fallback: 'all',
      members: [
        { address: '192.0.2.1', priority: 1, weight: 1 },
        { address: '192.0.2.2', priority: 2, weight: 5 },
      ],
      check: { kind: 'http', port: 80, path: '/', host: null, expect_status: [200, 399], expect_body: 'ok', tls_verify: true, interval_s: 10, timeout_ms: 2000, failures: 3, successes: 2 },
    });
  });

  it('names each wrong field as the API does', () => {
    const d = newPoolDraft();
    d.members = [newMember('192.0.2.1'), newMember('', 'x')];
    d.ttl = '';
    d.check.interval = '1.5';
    d.check.statusFrom = '400';
    d.check.statusTo = '200';
    const { errors } = poolBody(d);
    expect(errors).toEqual({
      name: 'is required',
      ttl: 'is required',
      'members[1].address': 'is required',
      'members[1].priority': 'must be a whole number',
      'check.interval_s': 'must be a whole number',
      'check.expect_status': 'must go from the lower status to the higher',
    });
  });

  it('refuses a pool without members', () => {
    const d = { ...newPoolDraft(), name: 'www', members: [] };
    expect(poolBody(d).errors).toEqual({ members: 'must list at least one member' });
  });
});

describe('draftOfPool', () => {
  it('gives back the same body a pool was made from', () => {
    const d = newPoolDraft();
    d.name = 'api';
    d.members = [newMember('2001:db8::1')];
    const { body } = poolBody({ ...d, type: 'AAAA' });
    const pool: Pool = { ...body, id: 7, fqdn: 'api.example.com.', members: body.members.map((m) => ({ ...m, state: 'up', since: null, nodes: [] })), answer: [], transitions: [], warnings: [] };
    expect(poolBody(draftOfPool(pool)).body).toEqual(body);
  });
});

describe('fieldMessage', () => {
  it('finds a member field written either way', () => {
    expect(fieldMessage({ 'members[1].address': 'a' }, 'members[1].address')).toBe('a');
    expect(fieldMessage({ 'members.1.address': 'b' }, 'members[1].address')).toBe('b');
    expect(fieldMessage({}, 'members[1].address')).toBeUndefined();
  });
});
