/**
 * Domain names inside rdata on the wire (RFC 1035 §3.1): always written whole, as RFC 3597
 * §4 asks for every type but the RFC 1035 ones (whose compression the DNS writer does);
 * read with pointers followed (RFC 1035 §4.1.4) when the message around the rdata is known.
 */
import { RuleError } from '../errors';
import type { ByteReader, ByteWriter } from './bytes';
import { ddd } from './presentation';

const encoder = new TextEncoder();

/** Writes a name as stored (lower case, absolute, no trailing dot; '.' or '' the root). */
export function encodeName(name: string, w: ByteWriter): void {
  if (name !== '.' && name !== '') {
    for (const label of name.split('.')) {
      const bytes = encoder.encode(label);
      w.u8(bytes.length);
      w.bytes(bytes);
    }
  }
  w.u8(0);
}

/** A label as presentation text: host-name octets as they are (lower case), others `\DDD`. */
function labelText(b: Uint8Array): string {
  let s = '';
  for (const c of b) {
    const ok = (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x5f || c === 0x2a;
    if (ok) s += String.fromCharCode(c);
    else if (c >= 0x41 && c <= 0x5a) s += String.fromCharCode(c + 32);
    else s += ddd(c);
  }
  return s;
}

/** Reads a name; returns it as text ('.' for the root), lower case, no trailing dot. */
export function decodeName(r: ByteReader): string {
  const labels: string[] = [];
  let data = r.data;
  let pos = r.pos;
  let jumped = false;
  let hops = 0;
  let total = 1;
  for (;;) {
    if (pos >= data.length) throw new RuleError('rdata ends inside a name');
    const len = data[pos]!;
    if (len === 0) {
      pos++;
      break;
    }
    if ((len & 0xc0) === 0xc0) {
      if (pos + 1 >= data.length) throw new RuleError('rdata ends inside a name');
      const target = ((len & 0x3f) << 8) | data[pos + 1]!;
      if (!jumped) r.pos = pos + 2;
      if (!r.context) throw new RuleError('has a compressed name, which is not allowed here (RFC 3597 §4)');
      if (++hops > 127) throw new RuleError('has a name with a compression loop');
      jumped = true;
      data = r.context.message;
      pos = target;
      continue;
    }
    if (len > 63) throw new RuleError('has a name with a bad label length');
    if (pos + 1 + len > data.length) throw new RuleError('rdata ends inside a name');
    total += len + 1;
    if (total > 255) throw new RuleError('has a name longer than 255 octets');
    labels.push(labelText(data.subarray(pos + 1, pos + 1 + len)));
    pos += 1 + len;
  }
  if (!jumped) r.pos = pos;
  return labels.length === 0 ? '.' : labels.join('.');
}
