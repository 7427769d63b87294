/** Request and response schemas of templates, the search across zones and batches. */
import { z } from '@hono/zod-openapi';
import { MAX_VARIABLES } from '../../core/template-render';
import { ChangeSetSchema } from '../zones/schemas';

const required = (what: string) => ({
  error: (issue: { input?: unknown }) => (issue.input === undefined ? 'is required' : `must be ${what}`),
});
const text = (what: string) => z.string(required(what));
const ttl = z
  .union([z.string(), z.number()], required('a whole number of seconds, e.g. "3600" or 3600'))
  .transform((v) => (typeof v === 'number' ? String(v) : v))
  .openapi({ type: ['string', 'integer'], example: '3600' });

export const VariablesSchema = z
  .record(z.string().max(32, 'a variable name is at most 32 characters'), z.string({ error: 'must be a string' }).max(255, 'must be at most 255 characters'), {
    error: 'must be an object of variable names and values',
  })
  .refine((v) => Object.keys(v).length <= MAX_VARIABLES, `must hold at most ${MAX_VARIABLES} variables`)
  .openapi({ example: { mx: 'mx1.mail.example.net' }, description: 'Values of the `{var}` placeholders; `{zone}` is always the zone name' });

const TemplateRRsetIn = z.strictObject({
  name: text('a name relative to the zone, "@", may hold placeholders').max(253, 'must be at most 253 characters').optional().openapi({ example: '@' }),
  record_type: text('a record type such as MX').max(16, 'must be a record type such as MX').openapi({ example: 'MX' }),
  ttl: ttl.optional(),
  records: z
    .array(text('the record data as text'), { error: 'must be a list of record contents' })
    .min(1, 'must hold at least one record')
    .max(10_000, 'must hold at most 10,000 records')
    .openapi({ example: ['10 {mx}.'] }),
});

export const TemplateCreateSchema = z
  .strictObject({
    name: text('a template name').max(64, 'must be at most 64 characters').openapi({ example: 'mail' }),
    description: text('a short text').max(500, 'must be at most 500 characters').optional(),
    team: text('a team name').max(64, 'must be at most 64 characters').optional().openapi({ description: 'Owned by this team (you must be its owner or admin); absent: yours alone' }),
    rrsets: z.array(TemplateRRsetIn, { error: 'must be a list of RRsets' }).max(100_000, 'must hold at most 100,000 RRsets').optional(),
    from_zone: text('a domain name')
      .max(254, 'must be a domain name')
      .optional()
      .openapi({ description: "Take this zone's RRsets (not the apex NS set, not disabled records); its name becomes {zone}", example: 'example.com' }),
  })
  .openapi('TemplateCreate');

export const TemplateUpdateSchema = z
  .strictObject({
    name: TemplateCreateSchema.shape.name.optional(),
    description: TemplateCreateSchema.shape.description,
    rrsets: z.array(TemplateRRsetIn, { error: 'must be a list of RRsets' }).max(100_000, 'must hold at most 100,000 RRsets').optional(),
  })
  .openapi('TemplateUpdate');

export const TemplateSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    description: z.string(),
    team: z.string().nullable().openapi({ description: 'The team that owns it; null: yours alone' }),
    rrsets: z.array(z.object({ name: z.string(), record_type: z.string(), ttl: z.string(), records: z.array(z.string()) })),
    variables: z.array(z.string()).openapi({ description: 'The {var} placeholders it uses', example: ['mx'] }),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('Template');

export const TemplateApplySchema = z
  .strictObject({
    zones: z.array(text('a domain name').max(254, 'must be a domain name'), { error: 'must be a list of domain names' }).min(1, 'must name at least one zone').max(500, 'must name at most 500 zones'),
    mode: z
      .enum(['merge', 'replace'], { error: 'must be merge or replace' })
      .optional()
      .openapi({ description: "merge (default): the template's RRsets replace the zone's at their names and types; replace: the zone's other RRsets go too (not the apex NS set)" }),
    variables: VariablesSchema.optional(),
    comment: text('a short text').max(500, 'must be at most 500 characters').optional(),
  })
  .openapi('TemplateApply');

const RRsetActionSchema = z.object({ name: z.string(), record_type: z.string(), action: z.enum(['add', 'replace', 'remove']) });

export const BatchResultSchema = z
  .object({
    batch: z.string().nullable().openapi({ description: 'The batch id (null for a dry run): GET /batches/{id}, POST /batches/{id}/revert' }),
    zones: z.array(z.object({ zone: z.string(), rrsets: z.array(RRsetActionSchema), change: ChangeSetSchema })),
  })
  .openapi('BatchResult');

export const TemplateZoneSchema = z
  .object({
    zone: z.string(),
    applied_at: z.string(),
    variables: z.record(z.string(), z.string()),
    drifted: z.boolean().nullable().openapi({
      description: 'null: not compared in this answer, which compares at most MAX_RECORDS_PER_ZONE records across its zones (`problem` says so); GET /domains/{name}/template compares one zone',
    }),
    differences: z.array(z.object({ name: z.string(), record_type: z.string(), expected: z.array(z.string()), actual: z.array(z.string()), ttl: z.tuple([z.number(), z.number()]).optional() })),
    problem: z.string().optional(),
  })
  .openapi('TemplateZone');

export const ZoneTemplateSchema = TemplateZoneSchema.extend({ template: z.object({ id: z.number(), name: z.string() }) }).openapi('ZoneTemplate');

export const MATCHES = ['exact', 'prefix', 'contains'] as const;

export const SearchQuerySchema = {
  name: z.string().max(254, 'must be at most 253 characters').optional().openapi({ description: 'The full name (www.example.com; the apex is the zone name)', example: 'mail' }),
  type: z.string().max(16, 'must be a record type such as A').optional().openapi({ example: 'A' }),
  content: z
    .string()
    .max(4096, 'must be at most 4096 characters')
    .optional()
    .openapi({ description: 'The content; for A/AAAA a network (192.0.2.0/24) finds every address inside it', example: '192.0.2.10' }),
  match: z.enum(MATCHES, { error: 'must be exact, prefix or contains' }).optional().openapi({ description: 'How name and content match: exact, prefix or contains (default)' }),
  zone: z.string().max(254, 'must be a domain name').optional().openapi({ description: 'Only this zone' }),
  accounts: z
    .enum(['own', 'all'], { error: 'must be own or all' })
    .optional()
    .openapi({ description: "`all`: every account's zones (administrators only; 403 for anyone else); default `own`: the zones you may read" }),
};

export const FoundRecordSchema = z
  .object({
    id: z.number().int(),
    zone: z.string(),
    name: z.string(),
    fqdn: z.string(),
    record_type: z.string(),
    content: z.string(),
    ttl: z.string(),
    disabled: z.literal(true).optional(),
  })
  .openapi('FoundRecord');

export const BulkChangeSchema = z
  .strictObject({
    name: SearchQuerySchema.name,
    type: SearchQuerySchema.type,
    content: SearchQuerySchema.content,
    match: SearchQuerySchema.match,
    zones: z.array(text('a domain name').max(254, 'must be a domain name')).max(500, 'must name at most 500 zones').optional().openapi({ description: 'Only these zones' }),
    action: z.enum(['replace', 'delete'], { error: 'must be replace or delete' }),
    replacement: text('the new content')
      .max(4096, 'must be at most 4096 characters')
      .optional()
      .openapi({ description: 'The content every record found gets (action replace)', example: '192.0.2.20' }),
    comment: text('a short text').max(500, 'must be at most 500 characters').optional(),
  })
  .openapi('BulkChange');

export const BatchSchema = z.object({ id: z.string(), zones: z.array(z.object({ zone: z.string(), change: ChangeSetSchema })) }).openapi('Batch');
