/**
 * Zone metadata (doc.powerdns.com/authoritative/http-api/metadata.html) for the kinds zonedeck has
 * a meaning for: `SOA-EDIT-API`, the zone attribute of that name (kept and answered; the serial
 * stays zonedeck's). Every other kind is 422 naming it, rather than stored and ignored: a client
 * that sets ALLOW-AXFR-FROM must not believe its secondaries are now allowed (DESIGN.md §13 says
 * who may transfer: AXFR_ALLOW and keys of the zone's owner).
 */
import { Hono, type Context } from 'hono';
import type { Services } from '../services';
import { DEFAULT_ZONE_ATTRIBUTES } from '../store/types';
import type { PdnsEnv } from './auth';
import { unprocessable } from './errors';
import { pathZone } from './scope';
import { attributesOf } from './zone-create';

const KINDS = ['SOA-EDIT-API'] as const;

function kindOf(raw: string): (typeof KINDS)[number] {
  const kind = raw.toUpperCase();
  if ((KINDS as readonly string[]).includes(kind)) return kind as (typeof KINDS)[number];
  throw unprocessable(`metadata kind '${raw.slice(0, 64)}' has no meaning in zonedeck; it keeps ${KINDS.join(', ')} (zone transfers are governed by AXFR_ALLOW and TSIG keys)`);
}

/** The values a metadata body gives (`{"metadata": ["…"]}`), or 422. */
function valuesOf(body: unknown): string[] {
  const list = (body as { metadata?: unknown } | null)?.metadata;
  if (!Array.isArray(list) || !list.every((v) => typeof v === 'string')) throw unprocessable('metadata: must be an array of strings');
  return list as string[];
}

export function metadataApi(services: Services) {
  const { store } = services;
  const attributes = async (c: Context<PdnsEnv>) => (await store.zoneAttributes.get([pathZone(c).id])).get(pathZone(c).id) ?? DEFAULT_ZONE_ATTRIBUTES;
  const entry = async (c: Context<PdnsEnv>) => ({ type: 'Metadata', kind: 'SOA-EDIT-API', metadata: [(await attributes(c)).soa_edit_api] });
  const set = async (c: Context<PdnsEnv>, values: string[]) => {
    if (values.length > 1) throw unprocessable('metadata: SOA-EDIT-API takes one value');
    const next = attributesOf({ soa_edit_api: values[0] ?? 'DEFAULT' }, await attributes(c));
    await store.zoneAttributes.set(pathZone(c).id, next!);
  };

  return new Hono<PdnsEnv>()
    .get('/zones/:zone_id/metadata', async (c) => c.json([await entry(c)]))
    .post('/zones/:zone_id/metadata', async (c) => {
      const body = (await c.req.json()) as { kind?: unknown };
      if (typeof body?.kind !== 'string') throw unprocessable('kind: must be a metadata kind, e.g. SOA-EDIT-API');
      kindOf(body.kind);
      await set(c, valuesOf(body));
      return c.json(await entry(c), 201);
    })
    .get('/zones/:zone_id/metadata/:kind', async (c) => {
      kindOf(c.req.param('kind'));
      return c.json(await entry(c));
    })
    .put('/zones/:zone_id/metadata/:kind', async (c) => {
      kindOf(c.req.param('kind'));
      await set(c, valuesOf(await c.req.json()));
      return c.json(await entry(c));
    })
    .delete('/zones/:zone_id/metadata/:kind', async (c) => {
      kindOf(c.req.param('kind'));
      await set(c, []);
      return c.body(null, 204);
    });
}
