/**
 * A record type made from its list of typed fields: from that list follow validation and
 * canonical content, the master-file text, the wire form both ways, RFC 3597's generic
 * `\# <length> <hex>` syntax, and the editor's fields. One error pattern throughout:
 * "TLSA: certificate association data must be hex".
 */
import { RuleError } from '../errors';
import { ByteReader, ByteWriter, type MessageContext } from './bytes';
import { Cursor, MissingToken, type EditorField, type Field, type ReadContext } from './field';
import { hexBytes } from './blob-fields';
import { tokenize, type Token } from './presentation';

export interface RecordType {
  type: string;
  /** RR type code (IANA DNS parameters). */
  code: number;
  description: string;
  example: string;
  /** The editor's form fields, one per rdata field. */
  fields: EditorField[];
  /** False where the type may not stand at the zone apex (RFC 1034 §3.6.2 for CNAME). */
  allowedAtApex: boolean;
  /** Why not, when `allowedAtApex` is false: the message for the record_type field. */
  apexRule?: string;
  /** Validates content and returns its canonical form; throws RuleError ("MX: preference must be …"). */
  normalize(content: string): string;
  /** Field values of canonical content, for the editor. */
  split(content: string): string[];
  /** Content from field values, before normalization. */
  join(values: string[]): string;
  /** Uncompressed wire rdata of canonical content. */
  toWire(content: string): Uint8Array;
  /**
   * Canonical content of wire rdata; `context` (the message and the rdata's offset in it)
   * lets compressed names of the RFC 1035 types be followed. Throws RuleError.
   */
  fromWire(rdata: Uint8Array, context?: MessageContext): string;
  /** Canonical content of master-file rdata tokens, relative names against `origin` ('' root). */
  fromTokens(tokens: readonly Token[], origin: string): string;
  /**
   * Canonical content of rdata in presentation form on one line, as dig prints it and the
   * PowerDNS API sends it (names with the trailing dot, TXT quoted); names without the dot
   * are relative to `origin` (default: the root, so absolute).
   */
  fromText(text: string, origin?: string): string;
  /** Master-file rdata of canonical content: absolute names with a trailing dot, ASCII only. */
  zoneText(content: string): string;
  /** The master-file text as PowerDNS prints it (hex in lower case, LOC sizes with decimals). */
  pdnsText(content: string): string;
  /**
   * rdata in the shape server/dns/wire/writer.ts takes: dns-packet's `data` shape for the types it
   * compresses or whose codec it uses, else the finished rdata (RFC 3597 generic encoding).
   */
  wireData(content: string): unknown;
  /** The host name this record points at, for CNAME chasing and additional data. */
  target?(content: string): string | null;
  /**
   * Not a type on the wire: the DNS server derives other records from it (ALIAS: the A and
   * AAAA at its name). Zone files carry it in RFC 3597 generic form under its private-use code.
   */
  synthetic?: boolean;
  /**
   * Served only as a signed primary made it (DNSSEC records of a secondary zone): written by a
   * zone transfer, never by a user (services/changes/draft-rules.ts judges that).
   */
  transferOnly?: boolean;
}

export interface TypeSpec {
  type: string;
  code: number;
  description: string;
  example: string;
  fields: Field<any>[];
  allowedAtApex?: boolean;
  apexRule?: string;
  /** The form named when content does not fit, e.g. "preference host" (default: the field names). */
  form?: string;
  /** Rules across fields; throws RuleError without the type prefix. */
  check?(values: any[]): void;
  /** Content that is not tokens (TXT: the text itself). */
  readContent?(content: string): unknown[];
  /**
   * The writer's data shape for canonical content, when not the finished rdata. It reads the
   * stored content directly (a zone of 100k records is loaded through it) and never throws.
   */
  wireData?(content: string): unknown;
  target?(values: any[]): string | null;
  synthetic?: boolean;
  transferOnly?: boolean;
}

/** The longest rdata a resource record can carry: RDLENGTH is 16 bits (RFC 1035 §3.2.1). */
const MAX_RDATA = 65535;

export function defineType(spec: TypeSpec): RecordType {
  const { type, fields } = spec;
  const prefix = (e: unknown): unknown => (e instanceof RuleError && !e.message.startsWith(`${type}: `) ? new RuleError(`${type}: ${e.message}`) : e);
  const form = spec.form ?? fields.map((f) => f.name).join(' ');
  const minTokens = fields.filter((f) => !f.optional).length;
  const shapeError = () => new RuleError(`${type}: must have the form "${form}", e.g. ${spec.example}`);

  function checked(values: unknown[]): unknown[] {
    spec.check?.(values);
    return values;
  }

  function readTokens(tokens: readonly Token[], ctx: ReadContext): unknown[] {
    if (tokens[0]?.text === '\\#') return decode(genericRdata(tokens));
    if (tokens.length < minTokens) throw shapeError();
    const c = new Cursor(tokens);
    let values: unknown[];
    try {
      values = fields.map((f) => f.read(c, ctx));
    } catch (e) {
      if (e instanceof MissingToken) throw shapeError();
      throw e;
    }
    if (!c.done) throw shapeError();
    return checked(values);
  }

  function decode(rdata: Uint8Array, context?: MessageContext): unknown[] {
    const r = new ByteReader(rdata, context);
    const values = fields.map((f) => f.decode(r));
    if (r.left > 0) throw new RuleError(`rdata has ${r.left} octets after the ${fields.at(-1)!.what || 'data'}`);
    return checked(values);
  }

  function parseContent(content: string): unknown[] {
    if (spec.readContent) return checked(spec.readContent(content));
    let tokens = tokenize(content);
    // A one-field type judges the content whole ("not a name" is a bad name, not three values).
    if (fields.length === 1 && !fields[0]!.rest && tokens.length > 1 && tokens[0]!.text !== '\\#') tokens = [{ text: content.trim(), quoted: false, line: 0 }];
    return readTokens(tokens, {});
  }

  /** Field texts joined by one space; an optional field with nothing to say leaves no trailing space. */
  const present = (values: unknown[], zone: boolean | 'pdns') =>
    fields
      .map((f, i) => (zone === 'pdns' ? (f.pdns ? f.pdns(values[i]) : f.text(values[i], true)) : f.text(values[i], zone)))
      .filter((t, i) => t !== '' || !fields[i]!.optional)
      .join(' ');
  const contentText = (values: unknown[]) => present(values, false);
  const encode = (values: unknown[]) => {
    const w = new ByteWriter();
    fields.forEach((f, i) => f.encode(values[i], w));
    return w.finish();
  };
  /** Values whose wire form fits a record (RFC 1035 §3.2.1: RDLENGTH is 16 bits): what any input is held to. */
  const bounded = (values: unknown[]) => {
    if (encode(values).length > MAX_RDATA) throw new RuleError(`the record data must be at most ${MAX_RDATA.toLocaleString('en-US')} octets on the wire (RFC 1035 §3.2.1)`);
    return values;
  };
  const guard =
    <A extends unknown[], R>(fn: (...a: A) => R) =>
    (...a: A): R => {
      try {
        return fn(...a);
      } catch (e) {
        throw prefix(e);
      }
    };

  const self: RecordType = {
    type,
    code: spec.code,
    description: spec.description,
    example: spec.example,
    fields: fields.map(({ name, label, hint, placeholder, wide }) => ({ name, label, hint, placeholder, ...(wide ? { wide } : {}) })),
    allowedAtApex: spec.allowedAtApex ?? true,
    ...(spec.allowedAtApex === false ? { apexRule: spec.apexRule ?? `a ${type} record cannot stand at the zone apex` } : {}),
    normalize: guard((content: string) => contentText(bounded(parseContent(content)))),
    split(content) {
      try {
        const values = parseContent(content);
        return fields.map((f, i) => (f.edit ? f.edit(values[i]) : f.text(values[i], false)));
      } catch {
        return fields.map((_, i) => (i === 0 ? content : ''));
      }
    },
    join: (values) => fields.map((f, i) => (f.unedit ? f.unedit(values[i] ?? '') : (values[i] ?? '').trim())).join(' '),
    toWire: guard((content: string) => encode(parseContent(content))),
    fromWire: guard((rdata: Uint8Array, context?: MessageContext) => contentText(decode(rdata, context))),
    fromTokens: guard((tokens: readonly Token[], origin: string) => contentText(bounded(readTokens(tokens, { origin })))),
    fromText: guard((text: string, origin = '') => contentText(bounded(readTokens(tokenize(text), { origin })))),
    zoneText: guard((content: string) => {
      return present(parseContent(content), true);
    }),
    pdnsText: guard((content: string) => present(parseContent(content), 'pdns')),
    wireData: spec.wireData ?? guard((content: string) => encode(parseContent(content))),
    ...(spec.target ? { target: (content: string) => spec.target!(parseContent(content)) } : {}),
    ...(spec.synthetic ? { synthetic: true } : {}),
    ...(spec.transferOnly ? { transferOnly: true } : {}),
  };
  return self;
}

/** RFC 3597 §5: `\# <length> <hex…>`, the rdata of any type in generic form. */
function genericRdata(tokens: readonly Token[]): Uint8Array {
  const length = tokens[1]?.text;
  if (length === undefined || !/^[0-9]{1,5}$/.test(length)) throw new RuleError('generic rdata must have the form \\# <length> <hex> (RFC 3597 §5)');
  const data = hexBytes(
    tokens
      .slice(2)
      .map((t) => t.text)
      .join(''),
  );
  if (!data) throw new RuleError('generic rdata must be hex (RFC 3597 §5)');
  if (Number(length) > MAX_RDATA) throw new RuleError(`generic rdata must be at most ${MAX_RDATA.toLocaleString('en-US')} octets (RFC 1035 §3.2.1)`);
  if (data.length !== Number(length)) throw new RuleError(`generic rdata has ${data.length} octets, not the ${length} its length says (RFC 3597 §5)`);
  return data;
}

export { genericRdata };
