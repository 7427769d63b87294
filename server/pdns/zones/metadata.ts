/**
 * Zone metadata (doc.powerdns.com/authoritative/http-api/metadata.html) for the kinds zonedeck has
 * a meaning for: `SOA-EDIT-API`, the zone attribute of that name (kept and answered; the serial
 * stays zonedeck's), and `RFC1123-CONFORMANCE`, always `0` (zonedeck takes underscores in names
 * and targets). Setting any other kind is 422 naming it, rather than storing and ignoring it: a
 * client that sets ALLOW-AXFR-FROM must not believe its secondaries are now allowed (zonedeck
 * decides who may transfer: AXFR_ALLOW and keys of the zone's owner). Reading or deleting a kind
 * zonedeck does not keep is what PowerDNS answers for one never set: no values, nothing to delete.
 * A kind PowerDNS does not know is 422 `Unsupported metadata kind` as there.
 */
import { Hono, type Context } from 'hono';
import type { Services } from '../../services';
import { DEFAULT_ZONE_ATTRIBUTES } from '../../store/types';
import type { PdnsEnv } from '../auth';
import { unprocessable } from '../errors';
import { pathZone } from '../scope';
import { attributesOf } from './zone-create';
import { bodyJson } from '../../http/body';

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
function kept(kind: string): Kept {
  if ((KEPT as readonly string[]).includes(kind)) return kind as Kept;
  throw unprocessable(`metadata kind '${kind.slice(0, 64)}' has no meaning in zonedeck; it keeps ${KEPT.join(', ')} (zone transfers are governed by AXFR_ALLOW and TSIG keys)`);
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
  const values = async (c: Context<PdnsEnv>, kind: string): Promise<string[]> => {
    if (kind === 'SOA-EDIT-API') return [(await attributes(c)).soa_edit_api];
    if (kind === 'RFC1123-CONFORMANCE') return ['0'];
    return [];
  };
  const entry = async (c: Context<PdnsEnv>, kind: string) => ({ type: 'Metadata', kind, metadata: await values(c, kind) });
  const set = async (c: Context<PdnsEnv>, kind: Kept, given: string[]) => {
    if (kind === 'RFC1123-CONFORMANCE') {
      if (given.length !== 1 || given[0] !== '0') throw alwaysZero();
      return;
    }
    if (given.length > 1) throw unprocessable('metadata: SOA-EDIT-API takes one value');
    const next = attributesOf({ soa_edit_api: given[0] ?? 'DEFAULT' }, await attributes(c));
    await services.zoneAttributes.set(pathZone(c), next!);
  };

  return new Hono<PdnsEnv>()
    .get('/zones/:zone_id/metadata', async (c) => c.json(await Promise.all(KEPT.map((k) => entry(c, k)))))
    .post('/zones/:zone_id/metadata', async (c) => {
      const body = (await bodyJson(c)) as { kind?: unknown };
      if (typeof body?.kind !== 'string') throw unprocessable('kind: must be a metadata kind, e.g. SOA-EDIT-API');
      const kind = kept(kindOf(body.kind, true));
      await set(c, kind, valuesOf(body));
      return c.json(await entry(c, kind), 201);
    })
    .get('/zones/:zone_id/metadata/:kind', async (c) => c.json(await entry(c, kindOf(c.req.param('kind'), false))))
    .put('/zones/:zone_id/metadata/:kind', async (c) => {
      const kind = kept(kindOf(c.req.param('kind'), true));
      await set(c, kind, valuesOf(await bodyJson(c)));
      return c.json(await entry(c, kind));
    })
    .delete('/zones/:zone_id/metadata/:kind', async (c) => {
      const kind = kindOf(c.req.param('kind'), true);
      // SOA-EDIT-API goes back to its default; a kind zonedeck does not keep has nothing to delete.
      if (kind === 'SOA-EDIT-API') await set(c, kind, []);
      else if (kind === 'RFC1123-CONFORMANCE') throw alwaysZero();
      return c.body(null, 204);
    });
}
