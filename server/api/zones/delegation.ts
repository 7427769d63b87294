/**
 * "Check from outside": a zone's delegation as resolvers see it, and each listed name
 * server's SOA serial (services/delegation-check.ts). The zone is resolved and access-checked
 * before the handler (`pathZone`), as on every /domains/:name path; every role of a team reads.
 */
import { createRoute, z } from '@hono/zod-openapi';
import type { Services } from '../../services';
import { DS_STATUSES, RESOLVER_STATUSES, SERVER_STATUSES } from '../../services/checks/delegation-check';
import { createApi, errors, json, security } from '../create-api';
import { pathZone } from './scope';

const params = z.object({ name: z.string().openapi({ param: { name: 'name', in: 'path' }, example: 'example.com' }) });

const RecordSets = z.object({
  ns: z.array(z.string()).openapi({ description: 'Name server names, lower case, without the trailing dot' }),
  ds: z.array(z.string()).openapi({ description: 'DS records as `key-tag algorithm digest-type DIGEST` (digest in upper-case hex)' }),
});

export const DelegationSchema = z
  .object({
    checked_at: z.string().openapi({ description: 'When the resolver was asked (a result is kept 30 s)' }),
    resolver: z.string().nullable().openapi({ description: 'RESOLVER as configured; null when unset: then nothing is asked and `parent` is null' }),
    resolver_status: z.enum(RESOLVER_STATUSES).openapi({
      description:
        'unset: no RESOLVER, nothing asked; recursive: it answered as a recursive resolver; not_recursive: it does not recurse (RA clear, REFUSED, or a referral), so nothing it says is taken and the zone is never shown as delegated — point RESOLVER at a recursive resolver; no_answer: it gave no usable answer',
    }),
    parent_zone: z.string().nullable().openapi({ example: 'com', description: 'The closest enclosing zone above this one ("." for the root), found through RESOLVER; null when not found' }),
    parent_servers: z.array(z.string()).openapi({ description: "The parent zone's name servers (at most 13), as RESOLVER gives them" }),
    asked: z.string().nullable().openapi({ example: 'a.gtld-servers.net (192.5.6.30)', description: 'The parent server that answered, asked directly without recursion; null when none did' }),
    parent: RecordSets.nullable().openapi({
      description: "The zone's NS set (the referral) and DS set as the parent's own server gives them; null when no parent server gave a usable answer (then nothing is matched)",
    }),
    expected: RecordSets.openapi({ description: "zonedeck's name servers (NAMESERVERS) and the DS of the zone's DNSSEC keys (none when unsigned)" }),
    ns_match: z.boolean().openapi({ description: 'The NS set the parent refers resolvers to is exactly NAMESERVERS: the zone is delegated here (otherwise: pending)' }),
    ds_status: z.enum(DS_STATUSES).openapi({
      description:
        'unsigned: no DNSSEC and no DS; missing: signed, but no DS at the parent (not validated yet); match: a DS matches a key of the zone; ' +
        'mismatch: a DS matches none of its keys, or a DS for an unsigned zone (validation fails); unknown: no answer',
    }),
    nameservers: z
      .array(
        z.object({
          name: z.string(),
          addresses: z.array(z.string()),
          serial: z.number().int().nullable().openapi({ description: 'The SOA serial it gave with authority; null when it gave none' }),
          status: z.enum(SERVER_STATUSES).openapi({ description: "The serial against the zone's: in_sync, behind, ahead, or no_answer (2 s)" }),
        }),
      )
      .openapi({ description: 'Each name server the parent lists (NAMESERVERS while it lists none), at most 13, asked directly for the SOA' }),
  })
  .openapi('Delegation');

const check = createRoute({
  method: 'get',
  path: '/domains/{name}/delegation',
  summary: "Check from outside: the zone's delegation and each name server's serial",
  description:
    "Finds the parent zone and its name servers through RESOLVER, asks one of the parent's servers directly (no recursion, up to 3 tried) for the zone's NS referral and DS set, " +
    'compares them with NAMESERVERS and the DS of its keys, and asks each listed name server (its address through RESOLVER, at most 13, 2 s each, in parallel) for the SOA serial. ' +
    'A RESOLVER that does not recurse is reported (`resolver_status`) and never yields a match. Kept 30 s per zone; `refresh=1` asks again after 5 s.',
  tags: ['Domains'],
  security,
  request: {
    params,
    query: z.object({
      refresh: z.enum(['1'], { error: 'must be 1' }).optional().openapi({ description: 'Ask again instead of the result kept (when it is older than 5 s)' }),
    }),
  },
  responses: { 200: { description: 'What the world sees', content: json(DelegationSchema) }, ...errors(400, 404) },
});

export function delegationApi(services: Services) {
  return createApi().endpoint(check, async (c) => {
    const { zone } = pathZone(c);
    const keys = (await services.zones.publicKeys([zone])).get(zone.id) ?? [];
    return c.json(await services.delegation.check(zone, keys, c.req.valid('query').refresh === '1'), 200);
  });
}
