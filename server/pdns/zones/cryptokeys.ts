/**
 * Cryptokeys (doc.powerdns.com/authoritative/http-api/cryptokey.html) mapped to zonedeck's
 * `dnssec_enabled`: a signed zone has the keys of its policy (a CSK, or a KSK and a ZSK; more
 * during a rollover). POST turns DNSSEC on and answers the new key; DELETE of the last key turns it
 * off. `active` and `published` say what the key does now (a rollover moves them, not a client);
 * the private key is never answered (PowerDNS gives it in GET …/cryptokeys/:id, zonedeck keeps it
 * to the DNS server).
 */
import { Hono, type Context } from 'hono';
import { APEX } from '../../core/domain-name';
import { DIGEST_SHA256 } from '../../services/dnssec/key-material';
import type { Services } from '../../services';
import type { DnssecPublicKey, DomainRow } from '../../store/types';
import type { PdnsEnv } from '../auth';
import { PdnsError, unprocessable } from '../errors';
import { dotted } from '../names';
import { pathZone } from '../scope';
import { CryptokeyIn, parseBody } from '../schemas';
import { pdnsWrite } from '../write-options';
import { bodyJson } from '../../http/body';

const ALGORITHM_NAMES = new Set(['13', 'ECDSAP256SHA256', 'ECDSA256']);
/** How PowerDNS names each algorithm and its key size. */
const PDNS_ALGORITHMS: Record<number, { name: string; bits: number }> = { 13: { name: 'ECDSAP256SHA256', bits: 256 }, 14: { name: 'ECDSAP384SHA384', bits: 384 }, 15: { name: 'ED25519', bits: 256 } };

/** A key as PowerDNS shows one (pdns/ws-auth.cc `apiZoneCryptokeysExport`). */
export function cryptokeyView(zone: string, k: DnssecPublicKey) {
  return {
    type: 'Cryptokey',
    id: k.id,
    keytype: k.role,
    active: k.signing,
    published: k.published,
    flags: k.flags,
    dnskey: `${k.flags} 3 ${k.algorithm} ${k.public_key}`,
    ds: k.role === 'zsk' ? [] : [`${k.key_tag} ${k.algorithm} ${DIGEST_SHA256} ${k.ds_digest.toLowerCase()}`],
    algorithm: PDNS_ALGORITHMS[k.algorithm]?.name ?? String(k.algorithm),
    bits: PDNS_ALGORITHMS[k.algorithm]?.bits ?? 0,
  };
}

export function cryptokeysApi(services: Services) {
  const { zones } = services;

  const zoneOf = async (c: Context<PdnsEnv>): Promise<DomainRow> => pathZone(c);
  /** The path's zone as a place for the write path, which reads it again in its transaction. */
  const placeOf = (c: Context<PdnsEnv>) => ({ zone: pathZone(c), base: APEX });

  const keysOf = async (zone: DomainRow) => (await zones.publicKeys([zone])).get(zone.id) ?? [];

  async function keyOf(c: Context<PdnsEnv>): Promise<{ zone: DomainRow; key: DnssecPublicKey; keys: DnssecPublicKey[] }> {
    const zone = await zoneOf(c);
    const keys = await keysOf(zone);
    const key = keys.find((k) => String(k.id) === c.req.param('key_id'));
    if (!key) throw new PdnsError(404, 'Not Found');
    return { zone, key, keys };
  }

  return new Hono<PdnsEnv>()
    .get('/zones/:zone_id/cryptokeys', async (c) => {
      const zone = await zoneOf(c);
      return c.json((await keysOf(zone)).map((k) => cryptokeyView(zone.name, k)));
    })
    .post('/zones/:zone_id/cryptokeys', async (c) => {
      const body = parseBody(CryptokeyIn, await bodyJson(c));
      const zone = await zoneOf(c);
      if (body.privatekey || body.content) throw unprocessable('privatekey: zonedeck makes its own keys; importing one is not supported');
      if (body.keytype && !['ksk', 'csk'].includes(body.keytype.toLowerCase())) {
        throw unprocessable(`keytype '${body.keytype}' is not supported: zonedeck signs with one combined key (csk)`);
      }
      if (body.algorithm !== undefined && !ALGORITHM_NAMES.has(String(body.algorithm).toUpperCase())) {
        throw unprocessable(`algorithm '${body.algorithm}' is not supported: zonedeck signs with ECDSAP256SHA256 (13)`);
      }
      if (body.bits !== undefined && body.bits !== 256) throw unprocessable('bits: an ECDSAP256SHA256 key has 256 bits');
      if (body.active === false || body.published === false) throw unprocessable('zonedeck keys are always active and published');
      const existing = await keysOf(zone);
      if (zone.dnssec_enabled && existing.length > 0) {
        throw unprocessable(`${dotted(zone.name)} is already signed with key ${existing.map((k) => k.id).join(', ')}; zonedeck keeps one key per zone (rollover: npm run cli -- dnssec rollover)`);
      }
      const applied = await zones.update(c.get('principal').user.id, placeOf(c), { dnssec_enabled: true }, pdnsWrite(c));
      const keys = await keysOf(applied.zone);
      return c.json(cryptokeyView(zone.name, keys.at(-1)!), 201);
    })
    .get('/zones/:zone_id/cryptokeys/:key_id', async (c) => {
      const { zone, key } = await keyOf(c);
      return c.json(cryptokeyView(zone.name, key));
    })
    .put('/zones/:zone_id/cryptokeys/:key_id', async (c) => {
      const body = parseBody(CryptokeyIn, await bodyJson(c));
      await keyOf(c);
      if (body.active === false || body.published === false) {
        throw unprocessable('zonedeck keys are always active and published; DELETE the key to stop signing the zone');
      }
      return c.body(null, 204);
    })
    .delete('/zones/:zone_id/cryptokeys/:key_id', async (c) => {
      const { zone, keys } = await keyOf(c);
      if (keys.length > 1) {
        throw unprocessable(`${dotted(zone.name)} is in a key rollover, which finishes by itself; delete its key after that`);
      }
      await zones.update(c.get('principal').user.id, placeOf(c), { dnssec_enabled: false }, pdnsWrite(c));
      return c.body(null, 204);
    });
}
