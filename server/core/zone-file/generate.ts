/**
 * BIND's `$GENERATE start-stop[/step] lhs [ttl] [class] type rhs`: one record per value of
 * the iterator, `$` in lhs and rhs replaced by it, `${offset[,width[,base]]}` with base
 * d, o, x or X, and `\$` a literal dollar sign. Bounded before anything is built: a
 * width of at most 255, offsets within ±2^31, each substituted name or rdata at most
 * 1,024 characters, and the number of records counted from the range, against what the file may
 * still hold, before one is made; the records are made one at a time as they are read.
 */
import { RuleError } from '../errors';
import type { Token } from '../rdata/presentation';

export const MAX_GENERATE = 65536;

/** A file past the most records a zone may hold: reading stops there. */
export class TooManyRecords extends RuleError {}
/** Widest `${offset,width}`: a label is at most 63 octets and a name 255, so 255 is already generous. */
export const MAX_GENERATE_WIDTH = 255;
const MAX_OFFSET = 2 ** 31;
/** Longest text a substitution may make (a name is at most 255 octets; rdata goes through its own bounds). */
const MAX_SUBSTITUTED = 1024;

function substitute(text: string, i: number): string {
  let out = '';
  for (let p = 0; p < text.length; p++) {
    const c = text[p]!;
    if (c === '\\' && text[p + 1] === '$') {
      out += '$';
      p++;
    } else if (c === '\\') {
      out += c + (text[p + 1] ?? '');
      p++;
    } else if (c !== '$') out += c;
    else if (text[p + 1] === '{') {
      const close = text.indexOf('}', p);
      if (close < 0) throw new RuleError('$GENERATE: "${" without "}"');
      const m = /^(-?[0-9]{1,10})(?:,([0-9]{1,10})(?:,([doxX]))?)?$/.exec(text.slice(p + 2, close));
      if (!m) throw new RuleError('$GENERATE: a modifier must be ${offset[,width[,base]]} with base d, o, x or X');
      if (Math.abs(Number(m[1])) > MAX_OFFSET) throw new RuleError(`$GENERATE: an offset must be between -${MAX_OFFSET} and ${MAX_OFFSET}`);
      if (Number(m[2] ?? 0) > MAX_GENERATE_WIDTH) throw new RuleError(`$GENERATE: a width must be at most ${MAX_GENERATE_WIDTH}`);
      const v = i + Number(m[1]);
      const base = m[3] ?? 'd';
      let s = Math.abs(v).toString(base === 'd' ? 10 : base === 'o' ? 8 : 16);
      if (base === 'X') s = s.toUpperCase();
      out += (v < 0 ? '-' : '') + s.padStart(Number(m[2] ?? 0), '0');
      p = close;
    } else out += String(i);
    if (out.length > MAX_SUBSTITUTED) throw new RuleError(`$GENERATE: a substituted name or rdata would be longer than ${MAX_SUBSTITUTED} characters`);
  }
  return out;
}

/** A `start-stop[/step]` range as written (numbers of at most ten digits), or null when it is not one. */
export function generateRange(text: string): { start: number; stop: number; step: number } | null {
  const m = /^([0-9]{1,10})-([0-9]{1,10})(?:\/([0-9]{1,10}))?$/.exec(text);
  return m ? { start: Number(m[1]), stop: Number(m[2]), step: Number(m[3] ?? 1) } : null;
}

/**
 * The token lists of the records a $GENERATE entry stands for (its tokens after the directive),
 * made one at a time; `allowance` is how many records the file may still hold: a range past it is
 * refused before any record is made.
 */
export function* generateEntries(args: readonly Token[], allowance = Infinity): Generator<Token[]> {
  if (args.length < 4 || args.length > 6) throw new RuleError('$GENERATE must have the form "$GENERATE start-stop[/step] lhs [ttl] [class] type rhs"');
  const range = generateRange(args[0]!.text);
  if (!range) throw new RuleError('$GENERATE: the range must be start-stop or start-stop/step');
  const { start, stop, step } = range;
  if (start > stop || step < 1) throw new RuleError('$GENERATE: the range must run upwards with a step of at least 1');
  const count = Math.floor((stop - start) / step) + 1;
  if (count > MAX_GENERATE) throw new RuleError(`$GENERATE: at most ${MAX_GENERATE} records per line`);
  if (count > allowance) throw new TooManyRecords(`$GENERATE: ${count} records, but the file may hold only ${allowance} more (a zone holds at most MAX_RECORDS_PER_ZONE records)`);
  const lhs = args[1]!;
  const middle = args.slice(2, -1);
  const rhs = args.at(-1)!;
  // The first substitution is checked before the loop: a bad modifier fails once, not 65,536 times.
  for (const i of [start, stop]) {
    substitute(lhs.text, i);
    substitute(rhs.text, i);
  }
  for (let i = start; i <= stop; i += step) {
    yield [{ ...lhs, text: substitute(lhs.text, i) }, ...middle, { ...rhs, text: substitute(rhs.text, i) }];
  }
}
