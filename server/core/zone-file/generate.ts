/**
 * BIND's `$GENERATE start-stop[/step] lhs [ttl] [class] type rhs`: one record per value of
 * the iterator, `$` in lhs and rhs replaced by it, `${offset[,width[,base]]}` with base
 * d, o, x or X, and `\$` a literal dollar sign. Bounded, so that a file cannot ask for
 * millions of records with one line.
 */
import { RuleError } from '../errors';
import type { Token } from '../rdata/presentation';

export const MAX_GENERATE = 65536;

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
      const m = /^(-?[0-9]+)(?:,([0-9]+)(?:,([doxX]))?)?$/.exec(text.slice(p + 2, close));
      if (!m) throw new RuleError('$GENERATE: a modifier must be ${offset[,width[,base]]} with base d, o, x or X');
      const v = i + Number(m[1]);
      const base = m[3] ?? 'd';
      let s = Math.abs(v).toString(base === 'd' ? 10 : base === 'o' ? 8 : 16);
      if (base === 'X') s = s.toUpperCase();
      out += (v < 0 ? '-' : '') + s.padStart(Number(m[2] ?? 0), '0');
      p = close;
    } else out += String(i);
  }
  return out;
}

/** The token lists of the records a $GENERATE entry stands for (its tokens after the directive). */
export function generateEntries(args: readonly Token[]): Token[][] {
  if (args.length < 4 || args.length > 6) throw new RuleError('$GENERATE must have the form "$GENERATE start-stop[/step] lhs [ttl] [class] type rhs"');
  const m = /^([0-9]{1,10})-([0-9]{1,10})(?:\/([0-9]{1,10}))?$/.exec(args[0]!.text);
  if (!m) throw new RuleError('$GENERATE: the range must be start-stop or start-stop/step');
  const [start, stop, step] = [Number(m[1]), Number(m[2]), Number(m[3] ?? 1)];
  if (start > stop || step < 1) throw new RuleError('$GENERATE: the range must run upwards with a step of at least 1');
  if (Math.floor((stop - start) / step) + 1 > MAX_GENERATE) throw new RuleError(`$GENERATE: at most ${MAX_GENERATE} records per line`);
  const lhs = args[1]!;
  const middle = args.slice(2, -1);
  const rhs = args.at(-1)!;
  const out: Token[][] = [];
  for (let i = start; i <= stop; i += step) {
    out.push([{ ...lhs, text: substitute(lhs.text, i) }, ...middle, { ...rhs, text: substitute(rhs.text, i) }]);
  }
  return out;
}
