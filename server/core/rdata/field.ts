/**
 * One typed rdata field: how it reads from presentation tokens, prints (record content or
 * master file), goes on and comes off the wire, and what the editor shows for it. A record
 * type is a list of these (record-codec.ts); each kind lives in fields.ts.
 */
import type { ByteReader, ByteWriter } from './bytes';
import type { Token } from './presentation';

export interface ReadContext {
  /**
   * In a master file, the current $ORIGIN (absolute, no trailing dot, '' for the root), to
   * which names without a trailing dot are relative. Undefined for record content, whose
   * names are always absolute (a trailing dot optional).
   */
  origin?: string;
}

/** Tokens being read, left to right. */
export class Cursor {
  i = 0;
  constructor(readonly tokens: readonly Token[]) {}

  get done(): boolean {
    return this.i >= this.tokens.length;
  }

  /** The next token; a missing one makes the record codec say which form was expected. */
  next(): Token {
    const t = this.tokens[this.i++];
    if (!t) throw new MissingToken();
    return t;
  }

  /** Every token left (at least one). */
  rest(): Token[] {
    if (this.done) throw new MissingToken();
    const out = this.tokens.slice(this.i);
    this.i = this.tokens.length;
    return out;
  }
}

export class MissingToken extends Error {}

export interface EditorField {
  /** Form field name (stable, used in CSS classes and test ids). */
  name: string;
  label: string;
  hint: string;
  placeholder: string;
  /** Long data (hex, base64, parameters): the editor gives it a whole row. */
  wide?: boolean;
}

export interface Field<V = unknown> extends EditorField {
  /** How messages name the field ("certificate association data"); '' when the type's name says it. */
  what: string;
  /** Takes every remaining token, and on the wire every remaining octet. */
  rest?: boolean;
  /** May be absent altogether (SVCB parameters). */
  optional?: boolean;
  read(c: Cursor, ctx: ReadContext): V;
  /** Presentation text: record content, or (`zone`) master-file text, absolute names with a dot and ASCII only. */
  text(v: V, zone: boolean): string;
  /**
   * The text as PowerDNS prints it, where that differs from the master-file text (hex in lower
   * case, LOC sizes with two decimals), so a client reads back what it wrote (default: `text(v, true)`).
   */
  pdns?(v: V): string;
  encode(v: V, w: ByteWriter): void;
  decode(r: ByteReader): V;
  /** What the editor shows for a value (default: its content text). */
  edit?(v: V): string;
  /** Content text of what was typed in the editor (default: trimmed as is). */
  unedit?(input: string): string;
}

export type FieldMeta = EditorField & { what?: string };

/** "Certificate association data" → "certificate association data"; "IPv4 address" stays. */
export function whatOf(meta: FieldMeta): string {
  if (meta.what !== undefined) return meta.what;
  const l = meta.label;
  return l.length > 1 && l[1] === l[1]!.toLowerCase() ? l[0]!.toLowerCase() + l.slice(1) : l;
}

/** "what must …", or "must …" for a field with no name of its own. */
export const says = (what: string, rest: string): string => (what ? `${what} ${rest}` : rest);
