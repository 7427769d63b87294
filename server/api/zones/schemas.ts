/**
 * The request and response schemas of the public API. They validate requests at the edge
 * and generate the OpenAPI document, so the two cannot drift apart.
 */
import { z } from '@hono/zod-openapi';
import { SOA_BOUNDS, type SoaField } from '../../core/soa';
import { MAX_SCOPE_ENTRIES } from '../../core/scope';
import { LABEL_CONTROL_CHARS, MAX_TOKEN_DAYS, MAX_TOKEN_LABEL } from '../../core/token-rules';
import { MAX_RECORD_COMMENT } from '../../services/changes/record-comments';
import { WRITABLE_TYPES } from '../../core/record-types';
import { TSIG_ALGORITHM_NAMES } from '../../core/tsig-rules';
import { MAX_TTL } from '../../core/ttl';
import { ALGORITHM_NAMES, DENIALS, KEY_SETUPS, MAX_LIFETIME_DAYS, MIN_LIFETIME_DAYS } from '../../core/dnssec-policy';
import { MAX_ALLOW_TRANSFER, MAX_ALSO_NOTIFY } from '../../core/zone-transfers';
import { SOURCES } from '../../services/changes/change-sets';

const required = (what: string) => ({
  error: (issue: { input?: unknown }) => (issue.input === undefined ? 'is required' : `must be ${what}`),
});

const text = (what = 'a string') => z.string(required(what));
const seconds = (field: SoaField) => {
  const { min, max } = SOA_BOUNDS[field];
  return z
    .number(required('a whole number of seconds'))
    .int('must be a whole number of seconds')
    .openapi({ minimum: min, maximum: max, description: `${SOA_BOUNDS[field].label}, seconds (${min}–${max})` });
};
const flag = () => z.boolean(required('true or false'));
const timestamp = z.string().openapi({ format: 'date-time', example: '2026-11-21T09:30:00.000Z' });

export const ErrorSchema = z
  .object({
    error: z.object({
      status: z.number().int(),
      code: z.string().openapi({ example: 'invalid_field' }),
      message: z.string(),
      fields: z
        .record(z.string(), z.string())
        .optional()
        .openapi({ example: { ttl: `must be a whole number of seconds between 0 and ${MAX_TTL}` } }),
      request_id: z.string().optional(),
    }),
  })
  .openapi('Error');

export const IpSchema = z
  .object({
    id: z.number().int(),
    address: z.string().openapi({ example: '198.51.100.0' }),
    active: z.boolean(),
    cidr: z.number().int().openapi({ example: 24 }),
    ipv4: z.boolean(),
    ipv6: z.boolean(),
    first: z.string().openapi({ example: '198.51.100.0' }),
    last: z.string().openapi({ example: '198.51.100.255' }),
  })
  .openapi('Ip');

export const DsRecordSchema = z
  .object({
    key_tag: z.number().int().openapi({ example: 2371 }),
    algorithm: z.number().int().openapi({ example: 13, description: '13: ECDSA P-256 with SHA-256 (RFC 6605)' }),
    digest_type: z.number().int().openapi({ example: 2, description: '2: SHA-256 (RFC 4509)' }),
    digest: z.string().openapi({ example: '1F987CC6583E92DF0890718C42E6A44B8A2BB1E5C1D1D7B4C7B2C4DAE6BE1D35' }),
    ds: z.string().openapi({ example: 'example.com. IN DS 2371 13 2 1F987CC6583E92DF0890718C42E6A44B8A2BB1E5C1D1D7B4C7B2C4DAE6BE1D35', description: 'The whole DS record in zone-file form' }),
    created_at: timestamp,
  })
  .openapi('DsRecord');

export const TransferSchema = z
  .object({
    state: z.enum(['ok', 'refreshing', 'failing', 'expired']).openapi({
      description:
        '`refreshing`: never transferred yet; `ok`: the last check found the primary and the zone current; `failing`: the last check failed (still answered until `expires_at`); `expired`: past SOA expire without a refresh (answered SERVFAIL)',
    }),
    serial: z.number().int().nullable().openapi({ description: "The primary's serial as last transferred" }),
    last_check: timestamp.nullable(),
    last_success: timestamp.nullable(),
    error: z.string().nullable().openapi({ description: 'What went wrong at the last check, per primary; null after a good one' }),
    expires_at: timestamp.nullable().openapi({ description: 'When the zone stops being answered unless refreshed (last refresh + SOA expire)' }),
    next_check: timestamp.nullable(),
  })
  .openapi('Transfer');

const DnssecPolicyOutSchema = z
  .object({
    algorithm: z.enum(ALGORITHM_NAMES),
    keys: z.enum(KEY_SETUPS),
    zsk_lifetime_days: z.number().int(),
    ksk_lifetime_days: z.number().int().nullable(),
    denial: z.enum(DENIALS),
  })
  .openapi('DnssecPolicy', { description: "The zone's DNSSEC policy: what its keys are and when they roll" });

export const DomainSchema = z
  .object({
    name: z.string().openapi({ example: 'example.com' }),
    delegated: z.boolean().openapi({ description: "True when the parent's NS set matches the service's name servers" }),
    delegation: z.enum(['unknown', 'delegated', 'not_delegated']).openapi({
      description: '`unknown` until a delegation check has answered for the zone (never, without RESOLVER); then what the last answer said, as `delegated` does',
    }),
    created_at: timestamp,
    updated_at: timestamp,
    serial_number: z.number().int().openapi({ example: 2026112101 }),
    refresh_interval: z.number().int(),
    retry_interval: z.number().int(),
    expire_interval: z.number().int(),
    minimum_ttl: z.number().int(),
    dnssec_enabled: z.boolean(),
    ds_records: z.array(DsRecordSchema).openapi({ description: 'Read-only. The DS record(s) to give the registrar of the parent zone; empty when DNSSEC is off, two during a key rollover' }),
    dnskey_records: z.array(z.string()).openapi({
      description: "Read-only. The zone's DNSKEY records (for registries that take a DNSKEY instead of a DS); empty when DNSSEC is off",
      example: ['example.com. IN DNSKEY 257 3 13 mdsswUyr3DPW132mOi8V9xESWE8jTo0dxCjjnopKl+GqJxpVXckHAeF+KkxLbxILfDLUT0rAK9iUzy1L53eKGQ=='],
    }),
    team: z.string().optional().openapi({ description: "Only for a team's zone: the team that owns it" }),
    role: z
      .enum(['owner', 'admin', 'editor', 'viewer'])
      .optional()
      .openapi({ description: "Only for a team's zone: your role in its team (`viewer` for an administrator reading another account's zone)" }),
    held_by: z.string().optional().openapi({ description: "Only when an administrator reads another account's zone: whose it is (`alice`, `team web`)" }),
    administrator_view: z.boolean().optional().openapi({ description: "Only when an administrator reads another account's zone: true (it is read-only to them)" }),
    kind: z.enum(['primary', 'secondary']).openapi({ description: '`primary`: its records are written here; `secondary`: they come by zone transfer from `primaries`' }),
    primaries: z.array(z.string()).openapi({ description: "A secondary's primaries (`host:port`); empty for a primary zone", example: ['192.0.2.1:53'] }),
    tsig_key: z.string().nullable().optional().openapi({ description: 'Only for a secondary: the TSIG key its transfers are signed with, or null' }),
    transfer: TransferSchema.optional().openapi({ description: 'Only for a secondary: how following its primaries goes' }),
    also_notify: z.array(z.string()).openapi({ example: ['192.0.2.1:53', '[2001:db8::1]:53'], description: "Secondaries NOTIFY goes to on every serial change, besides the service's SECONDARIES" }),
    allow_transfer: z.array(z.string()).openapi({ example: ['192.0.2.0/24'], description: 'Networks that may AXFR/IXFR this zone, besides AXFR_ALLOW' }),
    transfer_tsig_key: z
      .string()
      .nullable()
      .openapi({ example: 'acme-xfr', description: 'The TSIG key a transfer from allow_transfer must be signed with, and NOTIFY to also_notify is signed with; null: none' }),
    dnssec_policy: DnssecPolicyOutSchema,
  })
  .openapi('Domain');

const soaFields = {
  refresh_interval: seconds('refresh_interval').optional(),
  retry_interval: seconds('retry_interval').optional(),
  expire_interval: seconds('expire_interval').optional(),
  minimum_ttl: seconds('minimum_ttl').optional(),
  dnssec_enabled: flag().optional(),
};

export const DomainCreateSchema = z
  .strictObject({
    name: text('a domain name').openapi({ example: 'example.com' }),
    ...soaFields,
    team: text('a team name')
      .max(64, 'must be at most 64 characters')
      .optional()
      .openapi({ description: 'Creates the zone for this team (you must be its owner or admin); absent: for you alone', example: 'ops' }),
    zone_file: text('the text of a master file (RFC 1035 §5)').optional().openapi({
      description: 'Creates the zone from this master file in one step: its records and its SOA timers; its serial and apex NS set are ignored',
      example: '$TTL 3600\nwww IN A 192.0.2.1\n',
    }),
    template: z
      .number({ error: 'must be the id of a template' })
      .int('must be the id of a template')
      .positive('must be the id of a template')
      .optional()
      .openapi({ description: "Creates the zone with this template's RRsets in its first change set; the zone remembers it" }),
    variables: z
      .record(z.string().max(32, 'a variable name is at most 32 characters'), z.string({ error: 'must be a string' }).max(255, 'must be at most 255 characters'), {
        error: 'must be an object of variable names and values',
      })
      .optional()
      .openapi({ description: "Values of the template's {var} placeholders" }),
    kind: z
      .enum(['primary', 'secondary'], { error: 'must be "primary" or "secondary"' })
      .optional()
      .openapi({ description: '`secondary`: the zone is served from `primaries` by zone transfer; default `primary`' }),
    primaries: z
      .array(z.string({ error: 'must be a list of host:port' }).max(64, 'each must be at most 64 characters'), { error: 'must be a list of host:port' })
      .max(10, 'at most 10 primaries')
      .optional()
      .openapi({ description: 'For a secondary: its primaries, by address (`192.0.2.1:53`, `[2001:db8::1]:53`; the port defaults to 53), asked in this order', example: ['192.0.2.1:53'] }),
    tsig_key: z
      .string({ error: 'must be the name of one of your TSIG keys' })
      .max(253)
      .nullable()
      .optional()
      .openapi({ description: "For a secondary: one of your TSIG keys, to sign its transfers (and to require on its primaries' NOTIFYs)" }),
  })
  .openapi('DomainCreate');

const transferFields = {
  also_notify: z
    .array(text('an IP address and port such as 192.0.2.1:53'), required('a list of IP addresses and ports such as 192.0.2.1:53'))
    .max(MAX_ALSO_NOTIFY, `must list at most ${MAX_ALSO_NOTIFY} NOTIFY targets`)
    .optional()
    .openapi({ example: ['192.0.2.1:53', '[2001:db8::1]:53'], description: 'IP literals with a port (1–65535), no duplicates; NOTIFY (RFC 1996) goes to these too on every serial change' }),
  allow_transfer: z
    .array(text('an IP address or CIDR block such as 192.0.2.0/24'), required('a list of IP addresses or CIDR blocks such as 192.0.2.0/24'))
    .max(MAX_ALLOW_TRANSFER, `must list at most ${MAX_ALLOW_TRANSFER} networks`)
    .optional()
    .openapi({ example: ['192.0.2.0/24', '2001:db8::/32'], description: 'Networks that may AXFR/IXFR this zone, besides AXFR_ALLOW' }),
  transfer_tsig_key: text("the name of a TSIG key the zone's owner holds, or null")
    .max(253, 'must be at most 253 characters')
    .nullable()
    .optional()
    .openapi({ example: 'acme-xfr', description: "A TSIG key the zone's owner holds: transfers from allow_transfer must be signed with it, and NOTIFY to also_notify is; null: none" }),
};

const lifetime = (what: string) =>
  z
    .number({ error: `must be a whole number of days from ${MIN_LIFETIME_DAYS} to ${MAX_LIFETIME_DAYS}` })
    .int(`must be a whole number of days from ${MIN_LIFETIME_DAYS} to ${MAX_LIFETIME_DAYS}`)
    .min(MIN_LIFETIME_DAYS, `must be at least ${MIN_LIFETIME_DAYS} day: a key must outlive its own rollover`)
    .max(MAX_LIFETIME_DAYS, `must be at most ${MAX_LIFETIME_DAYS} days${what}`);

export const DnssecPolicySchema = z
  .strictObject({
    algorithm: z
      .enum(ALGORITHM_NAMES, { error: `must be one of ${ALGORITHM_NAMES.join(', ')}` })
      .optional()
      .openapi({ description: 'ECDSA P-256 (13), P-384 (14) or Ed25519 (15); changing it on a signed zone starts an algorithm rollover' }),
    keys: z
      .enum(KEY_SETUPS, { error: `must be one of ${KEY_SETUPS.join(', ')}` })
      .optional()
      .openapi({ description: 'One combined signing key, or a key-signing key with a zone-signing key' }),
    zsk_lifetime_days: lifetime('').optional().openapi({ description: 'Days a ZSK signs before it is rolled (KSK+ZSK only); default 90' }),
    ksk_lifetime_days: lifetime('; null rolls it only when asked')
      .nullable()
      .optional()
      .openapi({ description: 'Days a KSK or CSK lives before it is rolled; null (default): only when asked, as its rollover involves the parent' }),
    denial: z
      .enum(DENIALS, { error: `must be one of ${DENIALS.join(', ')}` })
      .optional()
      .openapi({ description: 'compact (RFC 9824, default) or nsec3 (RFC 5155: SHA-1, no extra iterations, no salt)' }),
  })
  .openapi('DnssecPolicyInput');

export const DomainUpdateSchema = z.strictObject({ ...soaFields, ...transferFields, dnssec_policy: DnssecPolicySchema.optional() }).openapi('DomainUpdate');

/** Fields a client may read but not write; naming them in a body is a 400 that says so. */
export const READ_ONLY_FIELDS = new Set([
  'name',
  'serial_number',
  'created_at',
  'updated_at',
  'delegated',
  'delegation',
  'ds_records',
  'dnskey_records',
  'id',
  'fqdn',
  'kind',
  'primaries',
  'transfer',
]);

/**
 * TTL in seconds: a string of digits as the interface specification says, or a JSON number as real clients send
 *; both reach the services as the string, which they range-check.
 */
const ttl = z
  .union([z.string(), z.number()], required('a whole number of seconds, e.g. "3600" or 3600'))
  .transform((v) => (typeof v === 'number' ? String(v) : v))
  .openapi({
    type: ['string', 'integer'],
    pattern: '^[0-9]+$',
    example: '3600',
    description: `Seconds, 0–${MAX_TTL}, as a string of digits (a JSON number is accepted too; answers always carry a string); defaults to the RRset's TTL, else the zone's minimum_ttl`,
  });

export const RecordSchema = z
  .object({
    id: z.number().int(),
    name: z.string().openapi({ example: 'www', description: 'Relative to the domain; "@" is the apex' }),
    record_type: z.string().openapi({ example: 'A' }),
    content: z.string().openapi({ example: '192.0.2.1' }),
    ttl: z.string().openapi({ example: '3600' }),
    fqdn: z.string().openapi({ example: 'www.example.com' }),
    disabled: z.literal(true).optional().openapi({ description: 'Present (true) only on a disabled record: kept and listed, never served, signed or transferred' }),
    comment: z.string().optional().openapi({
      example: 'web front, ticket OPS-12',
      description: "Present only when the record's RRset has a comment: one per RRset (name and type), shared by its records, the same the PowerDNS API shows in `comments`",
    }),
  })
  .openapi('Record');

/** The RRset's comment on a write: bounded text without control characters; '' or null clears it. */
const recordComment = z
  .string(required('a string, or null to clear it'))
  .max(MAX_RECORD_COMMENT, `must be at most ${MAX_RECORD_COMMENT} characters`)
  .refine((s) => !LABEL_CONTROL_CHARS.test(s), 'must not contain control characters')
  .nullable()
  .optional()
  .openapi({
    example: 'web front, ticket OPS-12',
    description: `The comment of the record's RRset (all its records share it), at most ${MAX_RECORD_COMMENT} characters; "" or null removes it; absent: kept as it is. Not part of the change set: no serial change, no history`,
  });

const recordFields = {
  name: text('a name relative to the domain, or "@"').openapi({ example: 'www' }),
  record_type: text('a record type such as A').openapi({ example: 'A', enum: WRITABLE_TYPES.map((t) => t.type) }),
  content: text('the record data as text').openapi({ example: '192.0.2.1' }),
  ttl,
};

export const RecordCreateSchema = z
  .strictObject({
    ...recordFields,
    name: recordFields.name.optional(),
    ttl: ttl.optional(),
    disabled: flag().optional().openapi({ description: 'true keeps the record without serving it (default false)' }),
    comment: recordComment,
  })
  .openapi('RecordCreate');

export const RecordUpdateSchema = z
  .strictObject({
    name: recordFields.name.optional(),
    record_type: recordFields.record_type.optional(),
    content: recordFields.content.optional(),
    ttl: ttl.optional(),
    disabled: flag().optional().openapi({ description: 'true stops serving the record (kept and listed), false serves it again' }),
    comment: recordComment,
  })
  .openapi('RecordUpdate');

const list = (what: string, example: string[], description: string) =>
  z.array(text(what), required('a list of strings')).max(MAX_SCOPE_ENTRIES, `must list at most ${MAX_SCOPE_ENTRIES} entries`).optional().openapi({ example, description });

/** What a credential may do; every part is optional and an empty one restricts nothing. */
export const ScopeSchema = z
  .strictObject({
    zones: list('a zone name', ['example.com'], 'Zones it may touch'),
    names: list(
      'a record name relative to its zone',
      ['_acme-challenge', '_acme-challenge.*'],
      'Record names relative to their zone ("@" is the apex); "*" as the whole first or last label stands for one or more labels',
    ),
    types: list('a record type', ['TXT'], 'Record types it may write'),
    read_only: flag().optional().openapi({ description: 'No writes at all' }),
    allowed_ips: list('an address or CIDR block', ['203.0.113.0/24', '2001:db8::/32'], 'Client networks it may be used from'),
  })
  .openapi('Scope', { description: 'Limits of a token or TSIG key; {} is unrestricted. A request outside it answers 403 (API) or REFUSED (DNS).' });

/** An API token as its owner sees it: never the secret or its hash. */
export const TokenSchema = z
  .object({
    id: z.number().int(),
    label: z.string().openapi({ example: 'deploy script' }),
    created_at: timestamp,
    last_used_at: timestamp.nullable().openapi({ description: 'Within a minute; null when never used' }),
    expires_at: timestamp.nullable().openapi({ description: 'null when the token does not expire' }),
    current: z.boolean().openapi({ description: 'True for the token that made this request' }),
    scope: ScopeSchema,
  })
  .openapi('Token');

export const TokenCreatedSchema = TokenSchema.extend({
  token: z.string().openapi({ example: 'zd_4m9V0cXcQw1m3C8mJwGgk1qkVv7Cw5Xb', description: 'The secret. Shown only in this response; the service keeps only its hash' }),
}).openapi('TokenCreated');

export const TokenCreateSchema = z
  .strictObject({
    label: text('a short text naming where the token is used')
      .trim()
      .min(1, 'must not be empty')
      .max(MAX_TOKEN_LABEL, `must be at most ${MAX_TOKEN_LABEL} characters`)
      .refine((s) => !LABEL_CONTROL_CHARS.test(s), 'must not contain control characters')
      .openapi({ example: 'deploy script' }),
    expires_in_days: z
      .number(required('a whole number of days'))
      .int('must be a whole number of days')
      .min(1, `must be between 1 and ${MAX_TOKEN_DAYS} days`)
      .max(MAX_TOKEN_DAYS, `must be between 1 and ${MAX_TOKEN_DAYS} days`)
      .optional()
      .openapi({ example: 90, description: `Days until the token stops working (1–${MAX_TOKEN_DAYS}); omit for a token that does not expire` }),
    scope: ScopeSchema.optional(),
  })
  .openapi('TokenCreate');

const ChangeRecordSchema = z.object({
  name: z.string().openapi({ example: 'www', description: 'Relative to the domain; "@" is the apex' }),
  record_type: z.string().openapi({ example: 'A' }),
  ttl: z.string().openapi({ example: '300' }),
  content: z.string().openapi({ example: '192.0.2.1' }),
  disabled: z.literal(true).optional().openapi({ description: 'Present on a disabled record (not served)' }),
});

/** One change set of a zone's history. */
export const ChangeSetSchema = z
  .object({
    id: z.number().int().nullable().openapi({ description: 'null for a dry run, or when the request changed nothing' }),
    serial_before: z.number().int(),
    serial_after: z.number().int(),
    created_at: timestamp,
    source: z.enum(SOURCES),
    actor: z.object({
      username: z.string(),
      credential: z.string().openapi({ example: 'token:12', description: 'token:<id>, session, tsig:<key name>, cli or system' }),
    }),
    comment: z.string(),
    added: z.array(ChangeRecordSchema),
    removed: z.array(ChangeRecordSchema),
    added_count: z.number().int().openapi({ description: 'Records added in all; a list shows at most 1,000 of each side, GET /changes/:id all of them' }),
    removed_count: z.number().int(),
    settings: z.record(z.string(), z.tuple([z.unknown(), z.unknown()])).openapi({ example: { minimum_ttl: [3600, 300] }, description: 'Zone settings changed: field → [old, new]' }),
    batch: z.string().optional().openapi({ description: 'Present on a change set of a batch (a template applied, or a bulk change, across zones): GET/POST /batches/{id}' }),
  })
  .openapi('ChangeSet');

export const CHANGETYPES = ['REPLACE', 'DELETE', 'ADD', 'REMOVE'] as const;

export const RRsetChangeSchema = z
  .strictObject({
    name: recordFields.name.optional(),
    record_type: recordFields.record_type,
    ttl: ttl.optional(),
    changetype: z.enum(CHANGETYPES, { error: `must be one of ${CHANGETYPES.join(', ')}` }),
    records: z.array(text('the record data as text'), { error: 'must be a list of record contents' }).max(10_000, 'must hold at most 10,000 records').optional(),
    comment: recordComment.openapi({ description: `The RRset's comment, at most ${MAX_RECORD_COMMENT} characters; "" or null removes it; absent: kept as it is (DELETE removes it)` }),
  })
  .openapi('RRsetChange');

export const RRsetPatchSchema = z
  .strictObject({
    rrsets: z.array(RRsetChangeSchema, { error: 'must be a list of RRset changes' }).min(1, 'must hold at least one RRset change').max(100_000, 'must hold at most 100,000 RRset changes'),
    comment: text('a short text').max(500, 'must be at most 500 characters').optional(),
  })
  .openapi('RRsetPatch');

export const RevertSchema = z.strictObject({ comment: text('a short text').max(500, 'must be at most 500 characters').optional() }).openapi('Revert');

export const ZoneImportResultSchema = z
  .object({
    change: ChangeSetSchema,
    ignored: z
      .array(z.object({ line: z.number().int(), name: z.string(), record_type: z.string(), reason: z.string() }))
      .openapi({ description: 'What the file held that the zone does not take (DNSSEC records, the apex NS set), by line' }),
  })
  .openapi('ZoneImportResult');
/** A TSIG key as its owner sees it: never the secret, which is shown once, at creation. */
export const TsigKeySchema = z
  .object({
    name: z.string().openapi({ example: 'acme-key', description: 'The key name clients put in their TSIG record' }),
    algorithm: z.string().openapi({ example: 'hmac-sha256', enum: [...TSIG_ALGORITHM_NAMES] }),
    scope: ScopeSchema,
    created_at: timestamp,
  })
  .openapi('TsigKey');

export const TsigKeyCreatedSchema = TsigKeySchema.extend({
  secret: z.string().openapi({ example: 'pQ8m0U4yCkYFd3h2mWj1Zg9bX0sV8n2rT6kL4aQe7cI=', description: 'Base64. Shown only in this response' }),
  nsupdate: z
    .string()
    .openapi({ example: 'hmac-sha256:acme-key:pQ8m0U4yCkYFd3h2mWj1Zg9bX0sV8n2rT6kL4aQe7cI=', description: 'The key as `nsupdate -y`, `dig -y`, `knsupdate -y` and `kdig -y` take it' }),
}).openapi('TsigKeyCreated');

export const TsigKeyCreateSchema = z
  .strictObject({
    name: text('a key name such as acme-key').openapi({ example: 'acme-key', description: 'A domain name: letters, digits, hyphens, underscores and dots; unique' }),
    algorithm: text('an algorithm name')
      .optional()
      .openapi({ example: 'hmac-sha256', enum: [...TSIG_ALGORITHM_NAMES], description: 'Default hmac-sha256' }),
    secret: text('base64').optional().openapi({ description: 'Base64, 16–512 octets, to bring an existing key along; omit to have a random 256-bit secret made' }),
    scope: ScopeSchema.optional(),
  })
  .openapi('TsigKeyCreate');
