/**
 * An algorithm rollover P-256 → Ed25519 that also goes from a CSK to a KSK and a ZSK (RFC 6781 §4.1.4),
 * started by a policy change and run to its end by itself under a validating resolver (see
 * rollover-csk.int.test.ts for the set-up): zero validation failures, and at the end only Ed25519 keys in
 * the zone and an Ed25519 DS at the parent.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { waitUntil } from '../../testing/wait-until';
import { described, probedRollover, startRolloverChain, type RolloverChain } from '../../testing/rollover-chain';

let r: RolloverChain | undefined;
beforeAll(async () => {
  r = await startRolloverChain('algorithm.example');
}, 240_000);
afterAll(async () => {
  await r?.stop();
});

it('rolls P-256 CSK → Ed25519 KSK+ZSK with zero validation failures; the old key is gone from the zone and the parent', async () => {
  const [old] = (await r!.view()).keys;
  expect(old).toMatchObject({ algorithm: 13, role: 'csk' });
  const { result, steps } = await probedRollover(
    r!,
    async () => {
      expect((await r!.zonedeck.api('PUT', '/domains/algorithm.example', { dnssec_policy: { algorithm: 'ed25519', keys: 'ksk-zsk' } })).status).toBe(200);
    },
    600_000,
  );
  // `remove` lasts until the driver's next look (a second or two): it may pass between two looks of the test.
  expect(steps.filter((s) => s !== 'remove')).toEqual(['sign', 'publish', 'submit', 'withdraw']);
  expect(described(result)).toEqual([]);
  const keys = (await r!.view()).keys;
  expect(keys.map((k) => [k.role, k.algorithm, k.state])).toEqual([
    ['ksk', 15, 'active'],
    ['zsk', 15, 'active'],
  ]);
  // The scanner reads the CDS through the resolver, which may hold the one listing both keys for its TTL (60 s).
  await waitUntil(
    'the parent holding the new DS alone',
    async () => {
      const ds = await r!.chain.parentDs();
      return ds.length === 1 && ds[0]!.startsWith(`${keys[0]!.key_tag} 15 2 `);
    },
    { limitMs: 120_000, everyMs: 1000 },
  );
  const dnskeys = (await r!.zonedeck.dig('+short', 'algorithm.example', 'DNSKEY')).trim().split('\n');
  expect(dnskeys.map((l) => l.split(' ').slice(0, 3).join(' ')).sort()).toEqual(['256 3 15', '257 3 15']);
}, 780_000);
