import { describe, expect, it } from 'vitest';
import type { DnssecKey, DnssecView } from '../../lib/api-types';
import { keysMatchPolicy, rolloverPending } from './policy-keys';

const key = (role: DnssecKey['role'], algorithm_name = 'ecdsap256sha256', state: DnssecKey['state'] = 'active'): DnssecKey => ({
  id: 1,
  key_tag: 1,
  role,
  algorithm: 13,
  algorithm_name,
  flags: role === 'zsk' ? 256 : 257,
  state,
  published: true,
  signing: true,
  in_cds: role !== 'zsk',
  created_at: '2026-01-01T00:00:00Z',
  state_since: null,
  ds: null,
});
const policy = (p: Partial<DnssecView['policy']> = {}): DnssecView['policy'] => ({
  algorithm: 'ecdsap256sha256',
  keys: 'csk',
  zsk_lifetime_days: 90,
  ksk_lifetime_days: null,
  denial: 'compact',
  ...p,
});
const view = (keys: DnssecKey[], p: Partial<DnssecView['policy']> = {}): DnssecView => ({ dnssec_enabled: true, policy: policy(p), keys, rollover: null, next_rollover_at: null, warnings: [] });

describe('keys against the policy', () => {
  it('holds for the keys the policy asks for, removed keys aside', () => {
    expect(keysMatchPolicy(view([key('csk'), key('csk', 'ed25519', 'removed')]))).toBe(true);
    expect(keysMatchPolicy(view([key('ksk'), key('zsk')], { keys: 'ksk-zsk' }))).toBe(true);
  });

  it('expects a rollover after a new algorithm or key setup is saved', () => {
    expect(rolloverPending(view([key('csk')], { algorithm: 'ed25519' }))).toBe(true);
    expect(rolloverPending(view([key('csk')], { keys: 'ksk-zsk' }))).toBe(true);
    expect(rolloverPending(view([key('ksk')], { keys: 'ksk-zsk' }))).toBe(true);
  });

  it('expects none on an unsigned zone or while one runs', () => {
    expect(rolloverPending({ ...view([key('csk')], { keys: 'ksk-zsk' }), dnssec_enabled: false })).toBe(false);
    const running = { kind: 'algorithm', step: 'sign', description: '', started_at: '', step_since: '', next_step_at: null, waiting_for: 'time', parent_ds: null, parent_checked_at: null } as const;
    expect(rolloverPending({ ...view([key('csk')], { keys: 'ksk-zsk' }), rollover: running })).toBe(false);
  });
});
