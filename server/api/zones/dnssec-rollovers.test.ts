/**
 * The rollover driver on a real SQLite store with a clock the test moves: each rollover kind runs to
 * its end through the API's "roll now" or a policy change, every step a change set, every wait taken
 * from the zone's TTLs; a parent hosted here follows the child's DS by itself; a parent that cannot be
 * asked holds the zone, with both keys, where it is.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app';
import type { DnssecView } from '../../services/dnssec/rollovers';

let t: TestApp;
let token: string;
let clock: number;
const START = Date.parse('2026-12-01T00:00:00.000Z');

beforeEach(async () => {
  t = await createTestApp();
  token = await t.user('alice');
  clock = START;
  t.services.dnssec.configure({ propagationS: 1, resolver: null, secondaries: false, node: 'test', log: { info() {}, warn() {}, error() {} }, now: () => new Date(clock) });
});
afterEach(async () => {
  await t.close();
});

const api = async (method: string, url: string, body?: unknown) => {
  const res = await t.request(method, `/api/v1${url}`, { token, body });
  return { status: res.status, body: (await res.json()) as any };
};
type KeyView = { key_tag: number; role: string; state: string; algorithm: number; ds: string | null; created_at: string; published: boolean };
const view = async (zone: string) => (await api('GET', `/domains/${zone}/dnssec`)).body as Omit<DnssecView, 'keys'> & { keys: KeyView[] };
const zoneId = async (zone: string) => (await t.services.store.domains.byName(zone))!.id;
const parentDs = async (parent: string, rel: string) =>
  (await t.services.store.records.atName(await zoneId(parent), rel))
    .filter((r) => r.record_type === 'DS')
    .map((r) => Number(r.content.split(' ')[0]))
    .sort();

/** A signed zone with short TTLs (60 s), so its waits are a minute or so each. */
async function signedZone(name: string, body: Record<string, unknown> = {}) {
  expect((await api('POST', '/domains', { name, dnssec_enabled: true, minimum_ttl: 60, ...body })).status).toBe(201);
  expect((await api('POST', `/domains/${name}/records`, { name: 'www', record_type: 'A', content: '192.0.2.1', ttl: '60' })).status).toBe(200);
}

/** Drives the zone until its rollover is over (or `stopAt` is reached), moving the clock to each next look; the steps seen in order. */
async function driveToEnd(zone: string, stopAt?: string): Promise<string[]> {
  const id = await zoneId(zone);
  const steps: string[] = [];
  for (let i = 0; i < 60; i++) {
    await t.services.dnssec.drive(id);
    const v = await view(zone);
    const step = v.rollover?.step ?? 'done';
    if (steps.at(-1) !== step) steps.push(step);
    if (step === 'done' || step === stopAt) return steps;
    const watch = (await t.services.store.dnssecWatch.get(id))!;
    expect(watch).not.toBeNull();
    const next = v.rollover?.next_step_at ? Date.parse(v.rollover.next_step_at) : clock + 2_000;
    clock = Math.max(clock + 1_000, next);
  }
  throw new Error(`${zone} did not finish: ${steps.join(' → ')}`);
}

describe('DNSSEC rollovers', () => {
  it('a CSK rollover under a parent hosted here: the parent takes the new DS by itself, the old key goes only after it, every step in history', async () => {
    await signedZone('example.com');
    await signedZone('sub.example.com');
    // The parent takes the child's DS as soon as the driver looks (a change set in the parent's history).
    await t.services.dnssec.drive(await zoneId('sub.example.com'));
    const [old] = (await view('sub.example.com')).keys;
    expect(await parentDs('example.com', 'sub')).toEqual([old!.key_tag]);

    const started = await api('POST', '/domains/sub.example.com/dnssec/rollover', {});
    expect(started.status).toBe(202);
    expect(started.body.rollover).toMatchObject({ kind: 'csk', step: 'publish', waiting_for: 'time' });
    // The first wait: the zone's largest TTL (60 s: its records, SOA and apex NS set alike) plus the propagation delay (1 s).
    expect(Date.parse(started.body.rollover.next_step_at) - Date.parse(started.body.rollover.step_since)).toBe(61_000);
    expect((await api('POST', '/domains/sub.example.com/dnssec/rollover', {})).status).toBe(409);

    expect(await driveToEnd('sub.example.com', 'submit')).toEqual(['publish', 'submit']);
    const during = await view('sub.example.com');
    expect(during.rollover).toMatchObject({ waiting_for: 'parent', next_step_at: null });
    expect(during.keys.map((k) => [k.state, k.published])).toEqual([
      ['active', true],
      ['ready', true],
    ]);
    expect(await driveToEnd('sub.example.com')).toEqual(['submit', 'remove', 'done']);

    const after = await view('sub.example.com');
    expect(after.keys).toHaveLength(1);
    expect(after.keys[0]!.key_tag).not.toBe(old!.key_tag);
    expect(after.keys[0]).toMatchObject({ state: 'active', role: 'csk' });
    expect(await parentDs('example.com', 'sub')).toEqual([after.keys[0]!.key_tag]);
    // Each step is a change set of its own, source dnssec, in plain words; the parent's DS changes are in the parent's history.
    const history = (await api('GET', '/domains/sub.example.com/changes')).body as { source: string; comment: string }[];
    const steps = history.filter((c) => c.source === 'dnssec').map((c) => c.comment);
    expect(steps.some((c) => /CDS and CDNSKEY list/.test(c))).toBe(true);
    expect(steps.some((c) => /removed; CSK \d+ alone signs/.test(c))).toBe(true);
    expect(steps.some((c) => /finished/.test(c))).toBe(true);
    const parentHistory = (await api('GET', '/domains/example.com/changes')).body as { source: string; comment: string }[];
    expect(parentHistory.filter((c) => c.source === 'dnssec' && c.comment.startsWith('the DS of sub.example.com follows its keys')).length).toBeGreaterThanOrEqual(3);
  });

  it('a parent that cannot be asked holds the rollover with both keys, failing closed, and says why', async () => {
    await signedZone('example.net');
    expect((await api('POST', '/domains/example.net/dnssec/rollover')).status).toBe(202);
    expect(await driveToEnd('example.net', 'submit')).toEqual(['publish', 'submit']);
    clock += 3 * 86_400_000;
    await t.services.dnssec.drive(await zoneId('example.net'));
    const v = await view('example.net');
    expect(v.rollover).toMatchObject({ step: 'submit', waiting_for: 'parent' });
    expect(v.keys.map((k) => k.state)).toEqual(['active', 'ready']);
    expect(v.warnings.join(' ')).toMatch(/RESOLVER is not set/);
    expect(v.warnings.join(' ')).toMatch(/more than a day/);
    const metrics = await (await t.request('GET', '/metrics')).text();
    expect(metrics).toMatch(/^zonedeck_dnssec_rollovers_waiting_on_parent 1$/m);
  });

  it('an algorithm rollover P-256 → Ed25519 from a policy change: the new keys sign before they are published, the old ones leave before they stop signing', async () => {
    await signedZone('example.com');
    await signedZone('sub.example.com');
    await t.services.dnssec.drive(await zoneId('sub.example.com'));
    expect((await api('PUT', '/domains/sub.example.com', { dnssec_policy: { algorithm: 'ed25519' } })).status).toBe(200);
    expect((await api('GET', '/domains/sub.example.com')).body.dnssec_policy).toMatchObject({ algorithm: 'ed25519', keys: 'csk' });
    expect(await driveToEnd('sub.example.com')).toEqual(['sign', 'publish', 'submit', 'withdraw', 'remove', 'done']);
    const keys = (await view('sub.example.com')).keys;
    expect(keys.map((k) => [k.role, k.algorithm, k.state])).toEqual([['csk', 15, 'active']]);
    expect(await parentDs('example.com', 'sub')).toEqual([keys[0]!.key_tag]);
  });

  it('CSK to KSK+ZSK, then a ZSK rollover by pre-publication: the parent is not involved', async () => {
    await signedZone('example.org');
    expect((await api('PUT', '/domains/example.org', { dnssec_policy: { keys: 'ksk-zsk' } })).status).toBe(200);
    // No parent can be asked here: the algorithm rollover waits at the parent step until told the parent has it.
    expect(await driveToEnd('example.org', 'submit')).toEqual(['sign', 'publish', 'submit']);
    expect((await api('POST', '/domains/example.org/dnssec/rollover', { kind: 'zsk' })).status).toBe(409);

    await signedZone('example.info', { dnssec_enabled: false });
    expect((await api('PUT', '/domains/example.info', { dnssec_enabled: true, dnssec_policy: { keys: 'ksk-zsk', algorithm: 'ecdsap384sha384' } })).status).toBe(200);
    const first = (await view('example.info')).keys;
    expect(first.map((k) => [k.role, k.algorithm, k.state, k.ds === null])).toEqual([
      ['ksk', 14, 'active', false],
      ['zsk', 14, 'active', true],
    ]);
    expect((await api('POST', '/domains/example.info/dnssec/rollover', { kind: 'zsk' })).status).toBe(202);
    expect(await driveToEnd('example.info')).toEqual(['publish', 'switch', 'remove', 'done']);
    const after = (await view('example.info')).keys;
    expect(after.map((k) => k.role)).toEqual(['ksk', 'zsk']);
    expect(after[0]!.key_tag).toBe(first[0]!.key_tag);
    expect(after[1]!.key_tag).not.toBe(first[1]!.key_tag);
  });

  it('a ZSK that has lived its lifetime is rolled by itself', async () => {
    await signedZone('example.info', { dnssec_enabled: false });
    expect((await api('PUT', '/domains/example.info', { dnssec_enabled: true, dnssec_policy: { keys: 'ksk-zsk', zsk_lifetime_days: 30 } })).status).toBe(200);
    await t.services.dnssec.drive(await zoneId('example.info'));
    const v = await view('example.info');
    expect(v.rollover).toBeNull();
    expect(Date.parse(v.next_rollover_at!) - Date.parse(v.keys[1]!.created_at)).toBe(30 * 86_400_000);
    clock = Date.parse(v.next_rollover_at!) + 1;
    expect(await driveToEnd('example.info')).toEqual(['publish', 'switch', 'remove', 'done']);
  });

  it('a read-only token, or one limited to some records, reads the keys but cannot roll them or change the policy; another user sees no such zone', async () => {
    await signedZone('example.com');
    for (const scope of [{ read_only: true }, { zones: ['example.com'], names: ['www'], types: ['A'] }]) {
      const scoped = (await api('POST', '/tokens', { label: 'scoped', scope })).body.token as string;
      const as = (method: string, url: string, body?: unknown) => t.request(method, `/api/v1${url}`, { token: scoped, body });
      expect((await as('GET', '/domains/example.com/dnssec')).status).toBe(200);
      expect((await as('POST', '/domains/example.com/dnssec/rollover', {})).status).toBe(403);
      expect((await as('PUT', '/domains/example.com', { dnssec_policy: { algorithm: 'ed25519' } })).status).toBe(403);
    }
    const mallory = await t.user('mallory');
    expect((await t.request('POST', '/api/v1/domains/example.com/dnssec/rollover', { token: mallory, body: {} })).status).toBe(404);
    expect((await t.request('GET', '/api/v1/domains/example.com/dnssec', { token: mallory })).status).toBe(404);
    const v = await view('example.com');
    expect(v.rollover).toBeNull();
    expect(v.policy.algorithm).toBe('ecdsap256sha256');
  });

  it('one node drives a zone at a time: while another node holds its lease, this one leaves the zone alone; a killed step resumes from the database', async () => {
    await signedZone('example.org');
    expect((await api('POST', '/domains/example.org/dnssec/rollover', {})).status).toBe(202);
    const id = await zoneId('example.org');
    // Another node took the zone (a lease of a minute) just as the step came due.
    clock += 3_600_000;
    const other = t.services.dnssec as unknown as { store: { dnssecWatch: { lease(id: number, h: string, now: string, until: string): Promise<boolean> } } };
    expect(await other.store.dnssecWatch.lease(id, 'other-node', new Date(clock).toISOString(), new Date(clock + 60_000).toISOString())).toBe(true);
    await t.services.dnssec.drive(id);
    expect((await view('example.org')).rollover?.step).toBe('publish');
    // The lease runs out (the other node died mid-step): this node resumes where the database says.
    clock += 61_000;
    await t.services.dnssec.drive(id);
    expect((await view('example.org')).rollover?.step).toBe('submit');
  });

  it('bad policies are 400 naming the field, and change nothing', async () => {
    await signedZone('example.com');
    const before = (await api('GET', '/domains/example.com')).body;
    for (const [policy, field] of [
      [{ algorithm: 'rsasha1' }, 'dnssec_policy.algorithm'],
      [{ keys: 'three' }, 'dnssec_policy.keys'],
      [{ zsk_lifetime_days: 0 }, 'dnssec_policy.zsk_lifetime_days'],
      [{ ksk_lifetime_days: 99999 }, 'dnssec_policy.ksk_lifetime_days'],
      [{ denial: 'nsec5' }, 'dnssec_policy.denial'],
      [{ salt: 'ab' }, 'dnssec_policy'],
    ] as const) {
      const res = await api('PUT', '/domains/example.com', { dnssec_policy: policy });
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body)).toContain(field);
    }
    expect((await api('POST', '/domains/example.com/dnssec/rollover', { kind: 'sideways' })).status).toBe(400);
    expect((await api('GET', '/domains/example.com')).body).toEqual(before);
  });
});
