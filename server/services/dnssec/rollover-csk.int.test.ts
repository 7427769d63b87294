/**
 * A CSK rollover that runs itself under a validating resolver: zonedeck's child below a local signed
 * root and parent (BIND), the parent's DS kept by a scanner that reads the child's validated CDS, delv
 * asking every kind of answer through the chain every second — not one validation failure from the
 * first step to the last, and at the end the old key gone from the zone and from the parent.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { waitUntil } from '../../testing/wait-until';
import { described, probedRollover, startRolloverChain, type RolloverChain } from '../../testing/rollover-chain';

let r: RolloverChain | undefined;
beforeAll(async () => {
  r = await startRolloverChain('csk.example');
}, 240_000);
afterAll(async () => {
  await r?.stop();
});

it('rolls its CSK to the end with zero validation failures; the old key leaves the zone and the parent', async () => {
  const [old] = (await r!.view()).keys;
  const { result, steps } = await probedRollover(
    r!,
    async () => {
      expect((await r!.zonedeck.api('POST', '/domains/csk.example/dnssec/rollover', { kind: 'csk' })).status).toBe(202);
    },
    420_000,
  );
  // `remove` lasts until the driver's next look (a second or two): it may pass between two looks of the test.
  expect(steps.filter((s) => s !== 'remove')).toEqual(['publish', 'submit']);
  expect(described(result)).toEqual([]);
  expect(result.asked).toBeGreaterThan(100);
  const keys = (await r!.view()).keys;
  expect(keys).toHaveLength(1);
  expect(keys[0]!.key_tag).not.toBe(old!.key_tag);
  // The scanner reads the CDS through the resolver, which may hold the one listing both keys for its TTL (60 s).
  await waitUntil(
    'the parent holding the new DS alone',
    async () => {
      const ds = await r!.chain.parentDs();
      return ds.length === 1 && ds[0]!.startsWith(`${keys[0]!.key_tag} 13 2 `);
    },
    { limitMs: 120_000, everyMs: 1000 },
  );
  const dnskeys = await r!.zonedeck.dig('+short', 'csk.example', 'DNSKEY');
  expect(dnskeys.trim().split('\n')).toHaveLength(1);
}, 600_000);
