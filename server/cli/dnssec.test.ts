/**
 * `dnssec rollover` starts a rollover now (the server's driver makes the steps: rollovers.test.ts):
 * the new key is published and signs beside the old at once, while the parent is still pointed at the
 * old key. The CLI's services feed an in-process DNS index here, as they feed the server's.
 */
import packet from 'dns-packet';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHandler } from '../dns/wire/handler';
import { ZoneIndex } from '../dns/index/zone-index';
import { syncZones, type ZoneSync } from '../dns/sync/zone-sync';
import { createTestApp, type TestApp } from '../testing/test-app';
import { run } from './main';

let t: TestApp;
let sync: ZoneSync;
let index: ZoneIndex;
beforeEach(async () => {
  t = await createTestApp();
  await t.user('alice');
  index = new ZoneIndex();
  sync = await syncZones({ store: t.services.store, events: t.services.events, index, identity: { primary: 'ns1.zonedeck.test', hostmaster: 'hostmaster.zonedeck.test' } });
});
afterEach(async () => {
  sync.stop();
  await t.close();
});

async function cli(...argv: string[]): Promise<string[]> {
  const lines: string[] = [];
  await run(t.services, argv, (l) => lines.push(l));
  await sync.settled();
  return lines;
}

const dsTags = async () => ((await (await t.request('GET', '/api/v1/domains/example.com')).json()).ds_records as { key_tag: number }[]).map((d) => d.key_tag);

function dns(type: string) {
  const handler = createHandler(index, { transferAllowed: () => false });
  const msg = packet.encode({
    id: 1,
    type: 'query',
    questions: [{ name: 'example.com', type: type as 'A' }],
    additionals: [{ type: 'OPT', name: '.', udpPayloadSize: 1232, flags: packet.DNSSEC_OK, options: [] } as unknown as packet.Answer],
  });
  return packet.decode(handler.udp(msg, '127.0.0.1')!).answers as { type: string; data: { keyTag?: number } }[];
}

describe('dnssec rollover', () => {
  it('starts a rollover now: the new key is published and signs beside the old, the parent still points at the old; a second start is refused', async () => {
    expect((await t.request('POST', '/api/v1/domains', { body: { name: 'example.com', dnssec_enabled: true } })).status).toBe(201);
    await sync.settled();
    const [old] = await dsTags();
    const started = await cli('dnssec', 'rollover', 'example.com');
    expect(started[0]).toMatch(/^example\.com: CSK rollover started \(serial \d+\)\.$/);
    expect(started[1]).toMatch(/is published and signs beside/);
    const fresh = Number(/CSK (\d+): published, signing, published/.exec(started.join('\n'))![1]);
    // The parent keeps the old DS until the new key is in every cache: CDS (and ds_records) name the old key alone for now.
    expect(await dsTags()).toEqual([old]);
    // Both keys published, every RRset signed by both (RFC 7583 §3.3 double signature).
    expect(dns('DNSKEY').filter((a) => a.type === 'DNSKEY')).toHaveLength(2);
    expect(
      dns('SOA')
        .filter((a) => a.type === 'RRSIG')
        .map((a) => a.data.keyTag),
    ).toEqual([old, fresh]);
    await expect(cli('dnssec', 'rollover', 'example.com')).rejects.toThrow(/already rolling its keys \(csk, step publish\)/);
    await expect(cli('dnssec', 'rollover', 'example.com', '--kind', 'sideways')).rejects.toThrow(/--kind must be one of/);
    expect(await cli('dnssec', 'show', 'example.com')).toEqual([
      expect.stringMatching(new RegExp(`^example\\.com\\. IN DS ${old} 13 2 [0-9A-F]{64}$`)),
      expect.stringMatching(/^example\.com\. IN DNSKEY 257 3 13 /),
      expect.stringMatching(/^example\.com\. IN DNSKEY 257 3 13 /),
      `; CSK ${old}: active, signing, published, in CDS`,
      `; CSK ${fresh}: published, signing, published`,
    ]);
  });

  it('refuses a zone that is not signed', async () => {
    await t.request('POST', '/api/v1/domains', { body: { name: 'example.com' } });
    await expect(cli('dnssec', 'rollover', 'example.com')).rejects.toThrow(/not signed: turn DNSSEC on first/);
    expect(await cli('dnssec', 'show', 'example.com')).toEqual(['example.com: DNSSEC is off']);
  });
});
