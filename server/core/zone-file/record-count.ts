/**
 * The reader's first pass: how many records the file stands for, its $GENERATE ranges counted,
 * not expanded, so that a file past the limit is refused at the line that crosses it before one
 * record is read.
 */
import { generateRange } from './generate';
import { ZoneLexer } from './lexer';

/** Entries counted between two yields (counting is about ten times cheaper than reading). */
const COUNT_CHUNK = 20_000;

/** The error of a file past `maxRecords`, or undefined; pauses (a yield) every COUNT_CHUNK entries. */
export function* countRecords(text: string, maxRecords: number): Generator<void, { line: number; message: string } | undefined> {
  const lexer = new ZoneLexer(text);
  let work = 0;
  let total = 0;
  for (let entry = lexer.next(); entry; entry = lexer.next()) {
    if (++work % COUNT_CHUNK === 0) yield;
    const first = entry.blankOwner ? '' : (entry.tokens[0]?.text.toUpperCase() ?? '');
    if (entry.error || (first.startsWith('$') && first !== '$GENERATE')) continue;
    const range = first === '$GENERATE' ? generateRange(entry.tokens[1]?.text ?? '') : null;
    total += range ? Math.max(0, Math.floor((range.stop - range.start) / Math.max(1, range.step)) + 1) : 1;
    if (total > maxRecords) {
      const generated = range ? ' (counting the records of its $GENERATE lines)' : '';
      return { line: entry.line, message: `the file holds more than ${maxRecords} records${generated}; a zone holds at most MAX_RECORDS_PER_ZONE` };
    }
  }
  return undefined;
}
