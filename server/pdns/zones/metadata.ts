/**
 * Zone metadata (doc.powerdns.com/authoritative/http-api/metadata.html) for the kinds zonedeck has
 * a meaning for: `SOA-EDIT-API`, the zone attribute of that name (kept and answered; the serial
 * stays zonedeck's), `RFC1123-CONFORMANCE`, always `0` (zonedeck takes underscores in names
 * and targets), and the zone's own transfers, `ALLOW-AXFR-FROM`, `ALSO-NOTIFY` and
 * `TSIG-ALLOW-AXFR` (transfer-metadata.ts: the settings `PUT /api/v1/domains/:name` writes, as a
 * change set). Setting any other kind is 422 naming it, rather than storing and ignoring it: a
 * client must not believe zonedeck keeps what it does not. Reading or deleting a kind
 * zonedeck does not keep is what PowerDNS answers for one never set: no values, nothing to delete.
 * A kind PowerDNS does not know is 422 `Unsupported metadata kind` as there.
 */
import { Hono, type Context } from 'hono';
import type { Services } from '../../services';
import { DEFAULT_ZONE_ATTRIBUTES, type DomainRow } from '../../store/types';
import type { PdnsEnv } from '../auth';
import { unprocessable } from '../errors';
import { pathZone } from '../scope';
import { attributesOf } from './zone-create';
import { bodyJson } from '../../http/body';
import { APEX } from '../../core/domain-name';
import { pdnsWrite } from '../write-options';
import { isTransferKind, TRANSFER_KINDS, transferPatch, transferValues, type TransferKind } from './transfer-metadata';

/** PowerDNS's kinds (pdns/ws-auth.cc `isValidMetadataKind`) and whether its API may write them; `X-…` kinds are anyone's. */
const POWERDNS_KINDS = new Map<string, boolean>([
  ...['ALLOW-AXFR-FROM', 'ALLOW-DNSUPDATE-FROM', 'ALSO-NOTIFY', 'AXFR-SOURCE', 'FORWARD-DNSUPDATE', 'GSS-ACCEPTOR-PRINCIPAL', 'GSS-ALLOW-AXFR-PRINCIPAL', 'IXFR'].map((k) => [k, true] as const),
  ...[
    'NOTIFY-DNSUPDATE',
    'PUBLISH-CDNSKEY',
    'PUBLISH-CDS',
    'RFC1123-CONFORMANCE',
    'SIGNALING-ZONE',
    'SLAVE-RENOTIFY',
    'SOA-EDIT-API',
    'SOA-EDIT-DNSUPDATE',
    'TSIG-ALLOW-AXFR',
    'TSIG-ALLOW-DNSUPDATE',
  ].map((k) => [k, true] as const),
  ...['AXFR-MASTER-TSIG', 'LUA-AXFR-SCRIPT', 'NSEC3NARROW', 'NSEC3PARAM', 'PRESIGNED', 'SOA-EDIT'].map((k) => [k, false] as const),
]);

const KEPT = ['SOA-EDIT-API', 'RFC1123-CONFORMANCE'] as const;
type Kept = (typeof KEPT)[number];

/** The kind a path or body names, upper case; 422 for one PowerDNS does not know, or may not write. */
function kindOf(raw: string, write: boolean): string {
  const kind = raw.toUpperCase();
  const writable = kind.startsWith('X-') || POWERDNS_KINDS.get(kind);
  if (writable === undefined || (write && !writable)) throw unprocessable(`Unsupported metadata kind '${raw.slice(0, 64)}'`);
  return kind;
}

/** A kind zonedeck keeps, or 422: setting one it has no meaning for would be a promise it does not keep. */
function kept(kind: string): Kept | TransferKind {
  if ((KEPT as readonly string[]).includes(kind) || isTransferKind(kind)) return kind as Kept | TransferKind;
  throw unprocessable(`metadata kind '${kind.slice(0, 64)}' has no meaning in zonedeck; it keeps ${[...KEPT, ...TRANSFER_KINDS].join(', ')}`);
}

const alwaysZero = () => unprocessable('metadata: RFC1123-CONFORMANCE is always 0 in zonedeck: underscores are taken in names and targets');

/** The values a metadata body gives (`{"metadata": ["…"]}`), or 422. */
function valuesOf(body: unknown): string[] {
  const list = (body as { metadata?: unknown } | null)?.metadata;
  if (!Array.isArray(list) || !list.every((v) => typeof v === 'string')) throw unprocessable('metadata: must be an array of strings');
  return list as string[];
}

export function metadataApi(services: Services) {
  const { store } = services;
  const attributes = async (c: Context<PdnsEnv>) => (await store.zoneAttributes.get([pathZone(c).id])).get(pathZone(c).id) ?? DEFAULT_ZONE_ATTRIBUTES;
  const values = async (c: Context<PdnsEnv>, kind: string, zone = pathZone(c)): Promise<string[]> => {
    if (kind === 'SOA-EDIT-API') return [(await attributes(c)).soa_edit_api];
    if (kind === 'RFC1123-CONFORMANCE') return ['0'];
    if (isTransferKind(kind)) return transferValues(zone, kind);
    return [];
  };
  const entry = async (c: Context<PdnsEnv>, kind: string, zone?: DomainRow) => ({ type: 'Metadata', kind, metadata: await values(c, kind, zone) });
  /** Every kept kind, the transfer kinds only when the zone has values for them (PowerDNS lists what is set). */
  const all = async (c: Context<PdnsEnv>) => [
    ...(await Promise.all(KEPT.map((k) => entry(c, k)))),
    ...(await Promise.all(TRANSFER_KINDS.map((k) => entry(c, k)))).filter((e) => e.metadata.length > 0),
  ];
  /** Sets the kind's values; a transfer kind answers the zone as its change set left it. */
  const set = async (c: Context<PdnsEnv>, kind: Kept | TransferKind, given: string[], add = false): Promise<DomainRow | undefined> => {
    if (isTransferKind(kind)) {
      const patch = transferPatch(pathZone(c), kind, given, add);
      return (await services.zones.update(c.get('principal').user.id, { zone: pathZone(c), base: APEX }, patch, pdnsWrite(c))).zone;
    }
    if (kind === 'RFC1123-CONFORMANCE') {
      if (given.length !== 1 || given[0] !== '0') throw alwaysZero();
      return;
    }
    if (given.length > 1) throw unprocessable('metadata: SOA-EDIT-API takes one value');
    const next = attributesOf({ soa_edit_api: given[0] ?? 'DEFAULT' }, await attributes(c));
    await services.zoneAttributes.set(pathZone(c), next!);
  };

  return new Hono<PdnsEnv>()
    .get('/zones/:zone_id/metadata', async (c) => c.json(await all(c)))
    .post('/zones/:zone_id/metadata', async (c) => {
      const body = (await bodyJson(c)) as { kind?: unknown };
      if (typeof body?.kind !== 'string') throw unprocessable('kind: must be a metadata kind, e.g. SOA-EDIT-API');
      const kind = kept(kindOf(body.kind, true));
      // POST adds to the values a kind has (PowerDNS's rule); PUT below replaces them.
      const zone = await set(c, kind, valuesOf(body), true);
      return c.json(await entry(c, kind, zone), 201);
    })
    .get('/zones/:zone_id/metadata/:kind', async (c) => c.json(await entry(c, kindOf(c.req.param('kind'), false))))
    .put('/zones/:zone_id/metadata/:kind', async (c) => {
      const kind = kept(kindOf(c.req.param('kind'), true));
      const zone = await set(c, kind, valuesOf(await bodyJson(c)));
      return c.json(await entry(c, kind, zone));
    })
    .delete('/zones/:zone_id/metadata/:kind', async (c) => {
      const kind = kindOf(c.req.param('kind'), true);
      // SOA-EDIT-API goes back to its default, a transfer kind to none; a kind zonedeck does not keep has nothing to delete.
      if (kind === 'SOA-EDIT-API' || isTransferKind(kind)) await set(c, kind, []);
      else if (kind === 'RFC1123-CONFORMANCE') throw alwaysZero();
      return c.body(null, 204);
    });
}
