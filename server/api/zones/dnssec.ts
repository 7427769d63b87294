/**
 * A signed zone's keys and rollovers: every key with its RFC 7583 state, the rollover in progress with
 * the earliest time of its next step (or the parent it waits for), warnings, and "roll now". The
 * rollover itself is the server's (services/dnssec/rollovers.ts); a start is a change set like any.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { ALGORITHM_NAMES, algorithmName, DENIALS, KEY_SETUPS } from '../../core/dnssec-policy';
import type { Services } from '../../services';
import { dsText } from '../../services/dnssec/key-material';
import { ROLLOVER_KINDS } from '../../services/dnssec/rollover-steps';
import type { DnssecView } from '../../services/dnssec/rollovers';
import { KEY_ROLES, KEY_STATES } from '../../store/types';
import { createApi, errors, json, security } from '../create-api';
import { pathZone } from './scope';
import { writeOptions } from './write-options';

const params = z.object({ name: z.string().openapi({ param: { name: 'name', in: 'path' }, example: 'example.com' }) });

const KeySchema = z.object({
  id: z.number().int(),
  key_tag: z.number().int(),
  role: z.enum(KEY_ROLES).openapi({ description: 'csk signs everything; ksk the apex DNSKEY, CDS and CDNSKEY sets; zsk the rest' }),
  algorithm: z.number().int(),
  algorithm_name: z.string(),
  flags: z.number().int(),
  state: z.enum(KEY_STATES).openapi({ description: 'Its place in its life as RFC 7583 names it' }),
  published: z.boolean().openapi({ description: 'In the apex DNSKEY set' }),
  signing: z.boolean().openapi({ description: 'Makes signatures (of the sets its role signs)' }),
  in_cds: z.boolean().openapi({ description: 'Listed in CDS/CDNSKEY: the parent should hold its DS' }),
  created_at: z.string(),
  state_since: z.string().nullable(),
  ds: z.string().nullable().openapi({ description: 'Its DS record in zone-file form (null for a ZSK, which the parent never points at)' }),
});

export const DnssecViewSchema = z
  .object({
    dnssec_enabled: z.boolean(),
    policy: z.object({ algorithm: z.enum(ALGORITHM_NAMES), keys: z.enum(KEY_SETUPS), zsk_lifetime_days: z.number().int(), ksk_lifetime_days: z.number().int().nullable(), denial: z.enum(DENIALS) }),
    keys: z.array(KeySchema),
    rollover: z
      .object({
        kind: z.enum(ROLLOVER_KINDS),
        step: z.string(),
        description: z.string().openapi({ description: 'What holds now and what comes next, in plain words' }),
        started_at: z.string(),
        step_since: z.string(),
        next_step_at: z.string().nullable().openapi({ description: 'The earliest time of the next step; null while it waits for the parent' }),
        waiting_for: z.enum(['time', 'parent']),
        parent_ds: z.array(z.string()).nullable().openapi({ description: 'The DS set the parent served at the last look (null: no usable answer, or not waiting on it)' }),
        parent_checked_at: z.string().nullable(),
      })
      .nullable(),
    next_rollover_at: z.string().nullable().openapi({ description: 'When a key next reaches the end of its lifetime (null: none has one)' }),
    warnings: z.array(z.string()),
  })
  .openapi('Dnssec');

const get = createRoute({
  method: 'get',
  path: '/domains/{name}/dnssec',
  summary: "The zone's DNSSEC keys, their states, and the rollover in progress",
  tags: ['Domains'],
  security,
  request: { params },
  responses: { 200: { description: 'Keys and rollover', content: json(DnssecViewSchema) }, ...errors(404) },
});

const rollover = createRoute({
  method: 'post',
  path: '/domains/{name}/dnssec/rollover',
  summary: 'Start a key rollover now; the server makes every step by itself',
  tags: ['Domains'],
  security,
  request: {
    params,
    body: {
      required: false,
      content: json(
        z.strictObject({
          kind: z
            .enum(ROLLOVER_KINDS, { error: `must be one of ${ROLLOVER_KINDS.join(', ')}` })
            .optional()
            .openapi({ description: 'Which keys to roll; default the KSK or CSK (or an algorithm rollover when the keys do not match the policy)' }),
        }),
      ),
    },
  },
  responses: { 202: { description: 'The rollover has started', content: json(DnssecViewSchema) }, ...errors(400, 403, 404, 409) },
});

/** The view as the API shows it: keys with their algorithm's name and DS. */
function present(zone: string, v: DnssecView) {
  return {
    ...v,
    keys: v.keys.map((k) => ({
      id: k.id,
      key_tag: k.key_tag,
      role: k.role,
      algorithm: k.algorithm,
      algorithm_name: algorithmName(k.algorithm) ?? String(k.algorithm),
      flags: k.flags,
      state: k.state,
      published: k.published,
      signing: k.signing,
      in_cds: k.in_cds,
      created_at: k.created_at,
      state_since: k.state_at,
      ds: k.role === 'zsk' ? null : dsText(zone, k),
    })),
  };
}

export function dnssecApi(services: Services) {
  return createApi()
    .endpoint(get, async (c) => {
      const { zone } = pathZone(c);
      return c.json(present(zone.name, await services.dnssec.view(zone)), 200);
    })
    .endpoint(rollover, async (c) => {
      const { zone } = pathZone(c);
      const body = (c.req.valid('json') as { kind?: (typeof ROLLOVER_KINDS)[number] } | undefined) ?? {};
      const after = await services.dnssec.startNow(zone, body.kind, writeOptions(c));
      return c.json(present(after.name, await services.dnssec.view(after)), 202);
    });
}
