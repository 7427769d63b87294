/**
 * A zone file as the import form holds it: text read from an uploaded file (UTF-8, as the
 * server requires), its lines counted and found by number, so a message about "line 6" can
 * point at line 6 of the text box.
 */

/** How many lines a text box shows for `text` (a trailing newline opens one more, empty line). */
export function lineCount(text: string): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** Where line `line` (1-based) starts and ends in `text`, without its newline; past the end, the last line. */
export function lineRange(text: string, line: number): { start: number; end: number } {
  let start = 0;
  for (let n = 1; n < line; n++) {
    const nl = text.indexOf('\n', start);
    if (nl === -1) break;
    start = nl + 1;
  }
  const nl = text.indexOf('\n', start);
  let end = nl === -1 ? text.length : nl;
  if (end > start && text[end - 1] === '\r') end--;
  return { start, end };
}

/**
 * An uploaded file's bytes as text. The server takes UTF-8 only (other octets are written as
 * `\DDD` in the file), so a file in another encoding is refused here, before it is sent,
 * rather than read with replacement characters the user would never see. A BOM is dropped.
 */
export function decodeZoneFile(bytes: Uint8Array): string {
  // Text never holds a NUL octet; archives, images and signed blobs nearly always do.
  if (bytes.includes(0)) throw new Error('This looks like a binary file, not a zone file (a master file is plain text).');
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new Error('This file is not UTF-8 text. Save it as UTF-8 (write other octets as \\DDD escapes) and try again.');
  }
}

/** The line-number gutter as runs of consecutive numbers, each run marked or not (lines with an error are marked). */
export function gutterRuns(count: number, marked: ReadonlySet<number>): Array<{ text: string; marked: boolean }> {
  const runs: Array<{ text: string; marked: boolean }> = [];
  let from = 1;
  const flush = (to: number, isMarked: boolean) => {
    if (to < from) return;
    const nums: number[] = [];
    for (let n = from; n <= to; n++) nums.push(n);
    runs.push({ text: nums.join('\n'), marked: isMarked });
    from = to + 1;
  };
  for (const line of [...marked].filter((l) => l >= 1 && l <= count).sort((a, b) => a - b)) {
    flush(line - 1, false);
    flush(line, true);
  }
  flush(count, false);
  return runs;
}
