/**
 * Zones in and out as master files: `GET /domains/:name/zone` downloads the
 * zone (`text/dns`); `POST /domains/:name/zone` with a master file replaces the zone's records
 * with the file's (`?mode=merge` adds to them), as one change set.
 */
import { createRoute, z } from '@hono/zod-openapi';
import type { Services } from '../../services';
import { createApi, errors, json, security } from '../create-api';
import { pathZone } from './scope';
import { ZoneImportResultSchema } from './schemas';
import { changeView, etag, writeHeaders, writeOptions, writeQuery } from './write-options';
import { bodyText } from '../../http/body';

const tags = ['Zone files'];
const zoneOnly = z.object({ name: z.string().openapi({ param: { name: 'name', in: 'path' }, example: 'example.com' }) });
const zoneText = z.string().openapi({ example: '$ORIGIN example.com.\n$TTL 3600\n@ 3600 IN SOA ns1.zonedeck.test. hostmaster.zonedeck.test. 2026112301 10800 3600 1209600 3600\n' });

const exportRoute = createRoute({
  method: 'get',
  path: '/domains/{name}/zone',
  summary: 'The zone as an RFC 1035 master file',
  description: '$ORIGIN, $TTL, the SOA, the apex NS set and every record; DNSSEC records are left out (zonedeck signs online). named-checkzone accepts it.',
  tags,
  security,
  request: { params: zoneOnly },
  responses: { 200: { description: 'The master file', content: { 'text/dns': { schema: zoneText } } }, ...errors(404) },
});

const importRoute = createRoute({
  method: 'post',
  path: '/domains/{name}/zone',
  summary: "Replace the zone's records with a master file's (or add them with ?mode=merge), as one change set",
  description:
    'Send the file as the body with Content-Type text/dns (or text/plain). $ORIGIN, $TTL, relative names, @, blank owners, parentheses, comments, quoted strings and \\DDD escapes are understood; $INCLUDE is refused. ' +
    "The file's SOA timers become the zone's; its serial is ignored; the apex NS set stays the service's. Any error: 400 with fields keyed `line <n>`, nothing applied.",
  tags,
  security,
  request: {
    params: zoneOnly,
    query: z.object({
      ...writeQuery,
      comment: z.string().max(500, 'must be at most 500 characters').optional().openapi({ description: "The change set's comment" }),
      mode: z
        .enum(['replace', 'merge'], { error: 'must be replace or merge' })
        .optional()
        .openapi({ description: "replace (default): the zone holds exactly the file's records; merge: the file's records are added" }),
    }),
    headers: writeHeaders,
    body: { required: true, content: { 'text/dns': { schema: zoneText }, 'text/plain': { schema: zoneText } } },
  },
  responses: {
    200: {
      description: 'The change set (id null for a dry run; at most 1,000 records of each side, with their counts) and what the file held that was not taken',
      content: json(ZoneImportResultSchema),
    },
    ...errors(400, 403, 404, 408, 409, 412, 413),
  },
});

export function zoneFilesApi(services: Services) {
  const { zoneFiles } = services;
  return createApi()
    .endpoint(exportRoute, async (c) => {
      const zone = pathZone(c).zone;
      const text = await zoneFiles.export(zone);
      return c.body(text, 200, {
        'Content-Type': 'text/dns; charset=utf-8',
        'Content-Disposition': `attachment; filename="${zone.name}.zone"`,
        ETag: etag(zone.serial_number),
      }) as never;
    })
    .endpoint(importRoute, async (c) => {
      const place = pathZone(c);
      const opts = writeOptions(c, c.req.valid('query').comment);
      const text = await bodyText(c);
      const applied = await zoneFiles.importInto(place.zone, place.zone, text, c.req.valid('query').mode ?? 'replace', opts);
      c.header('ETag', etag(opts.dryRun ? applied.change.serial_before : applied.zone.serial_number));
      // A whole zone's worth of records would be megabytes: the first 1,000 of each side, and the counts.
      return c.json({ change: changeView(applied.change, 1000), ignored: applied.result.ignored }, 200);
    });
}
