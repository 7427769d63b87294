/**
 * The request bodies of the PowerDNS API that zonedeck reads (the `Zone`, `RRSet`, `Record`
 * and `Cryptokey` objects of its OpenAPI document). Fields zonedeck has no use for are
 * accepted and dropped, as PowerDNS itself ignores what it does not read: clients send
 * extra ones (lego adds `kind` and per-record `name`/`type`/`ttl`, octoDNS `serial`).
 */
import { z } from 'zod';
import { Invalid } from '../core/errors';

const optional = <T extends z.ZodType>(t: T) => t.nullish().transform((v) => v ?? undefined);

export const RecordIn = z.object({
  content: z.string({ error: 'must be a string: the record data as in a zone file' }),
  disabled: optional(z.boolean({ error: 'must be true or false' })),
});

/** A comment on an RRset, as PowerDNS has them (its Comment object). */
export const CommentIn = z.object({
  content: z.string({ error: 'must be a string' }).max(4096, 'must be at most 4096 characters'),
  account: optional(z.string({ error: 'must be a string' }).max(255, 'must be at most 255 characters')),
  // PowerDNS's words for a bad one (pdns/json.cc), then zonedeck's.
  modified_at: optional(
    z
      .number({ error: "Key 'modified_at' is not a valid number: seconds since 1970" })
      .int()
      .min(0)
      .max(2 ** 32 - 1, "Key 'modified_at' is not a valid number: seconds since 1970, at most 4294967295"),
  ),
});

export const RRsetIn = z.object({
  name: z.string({ error: 'must be a string: the absolute name, e.g. www.example.com.' }),
  type: z.string({ error: 'must be a string: the record type, e.g. A' }),
  ttl: optional(
    z
      .number({ error: "Key 'ttl' is not a positive Integer: a whole number of seconds" })
      .int({ error: "Key 'ttl' is not a positive Integer: a whole number of seconds" })
      .min(0, "Key 'ttl' is not a positive Integer: a whole number of seconds"),
  ),
  changetype: optional(z.string({ error: 'must be REPLACE, DELETE, EXTEND or PRUNE' })),
  records: optional(z.array(RecordIn, { error: 'must be an array of records' })),
  comments: optional(z.array(CommentIn, { error: 'must be an array of comments' }).max(100, 'at most 100 comments per RRset')),
});
export type RRsetInput = z.infer<typeof RRsetIn>;

export const PatchBody = z.object({
  rrsets: z.array(RRsetIn, { error: 'must be an array of RRsets: No rrsets given in update request' }),
});

/** What POST …/zones and PUT …/zones/:zone_id read of a Zone object. */
export const ZoneIn = z.object({
  name: optional(z.string({ error: 'must be a string, e.g. example.org.' })),
  kind: optional(z.string({ error: 'must be a string' })),
  masters: optional(z.array(z.string(), { error: 'must be an array of addresses' })),
  nameservers: optional(z.array(z.string(), { error: 'must be an array of names' })),
  rrsets: optional(z.array(RRsetIn, { error: 'must be an array of RRsets' })),
  zone: optional(z.string({ error: 'must be a zone file as a string' })),
  dnssec: optional(z.boolean({ error: 'must be true or false' })),
  nsec3param: optional(z.string({ error: 'must be a string' })),
  presigned: optional(z.boolean({ error: 'must be true or false' })),
  // Kept and answered as PowerDNS does; they change nothing zonedeck serves.
  account: optional(
    z
      .string({ error: 'must be a string' })
      .max(255, 'must be at most 255 characters')
      .regex(/^[^\x00-\x1f\x7f]*$/, 'must not contain control characters'),
  ),
  soa_edit_api: optional(z.string({ error: 'must be a string' }).max(32)),
  catalog: optional(z.string({ error: 'must be a string' }).max(255)),
  master_tsig_key_ids: optional(z.array(z.string().max(255), { error: 'must be an array of TSIG key ids' }).max(100)),
  slave_tsig_key_ids: optional(z.array(z.string().max(255), { error: 'must be an array of TSIG key ids' }).max(100)),
});
export type ZoneInput = z.infer<typeof ZoneIn>;

export const CryptokeyIn = z.object({
  keytype: optional(z.string({ error: 'must be ksk, zsk or csk' })),
  active: optional(z.boolean({ error: 'must be true or false' })),
  published: optional(z.boolean({ error: 'must be true or false' })),
  algorithm: optional(z.union([z.string(), z.number()], { error: 'must be an algorithm name or number' })),
  bits: optional(z.number({ error: 'must be a number' })),
  privatekey: optional(z.string()),
  content: optional(z.string()),
});

/** What POST …/tsigkeys reads of a TSIGKey object (`id` and `type`, sent back by some clients, are dropped). */
export const TsigKeyIn = z.object({
  name: z.string({ error: 'must be a string: the key name, e.g. mytsigkey' }).max(255, 'must be at most 255 characters'),
  algorithm: optional(z.string({ error: 'must be a string, e.g. hmac-sha256' }).max(64, 'must be at most 64 characters')),
  key: optional(z.string({ error: 'must be a string: the secret in base64' }).max(1024, 'must be at most 1024 characters')),
});

/** What PUT …/tsigkeys/:id reads: each part given is changed, the others kept. */
export const TsigKeyChangeIn = TsigKeyIn.extend({ name: optional(TsigKeyIn.shape.name) });

/** Parses a body; every problem becomes one field of an Invalid (answered 422 with all of them). */
export function parseBody<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const fields: Record<string, string> = {};
  for (const issue of r.error.issues) {
    const path = issue.path.map(String).join('.') || 'body';
    fields[path] ??= path === 'body' && issue.code === 'invalid_type' ? 'must be a JSON object' : issue.message;
  }
  throw new Invalid(fields);
}
