import { describe, expect, it } from 'vitest';
import { decodeZoneFile, gutterRuns, lineCount, lineRange } from './zone-file-text';

const FILE = '$TTL 300\nwww IN A 192.0.2.1\r\nbad IN A 300.1.1.1\n';

describe('lines of a zone file', () => {
  it('counts lines as a text box shows them', () => {
    expect(lineCount('')).toBe(1);
    expect(lineCount('a')).toBe(1);
    expect(lineCount(FILE)).toBe(4);
  });

  it('finds a line by its number, without its line ending, so it can be selected', () => {
    const at = (n: number) => {
      const { start, end } = lineRange(FILE, n);
      return FILE.slice(start, end);
    };
    expect(at(1)).toBe('$TTL 300');
    expect(at(2)).toBe('www IN A 192.0.2.1');
    expect(at(3)).toBe('bad IN A 300.1.1.1');
    expect(at(4)).toBe('');
    expect(at(99)).toBe('');
    expect(lineRange('a\nb', 7)).toEqual({ start: 2, end: 3 });
  });

  it('marks the lines with errors in the gutter, the rest in runs', () => {
    expect(gutterRuns(6, new Set([2, 3, 6, 40]))).toEqual([
      { text: '1', marked: false },
      { text: '2', marked: true },
      { text: '3', marked: true },
      { text: '4\n5', marked: false },
      { text: '6', marked: true },
    ]);
    expect(gutterRuns(3, new Set())).toEqual([{ text: '1\n2\n3', marked: false }]);
  });
});

describe('decodeZoneFile', () => {
  const bytes = (...b: number[]) => new Uint8Array(b);
  it('reads UTF-8, dropping a byte-order mark', () => {
    expect(decodeZoneFile(new TextEncoder().encode('txt IN TXT "café"\n'))).toBe('txt IN TXT "café"\n');
    expect(decodeZoneFile(bytes(0xef, 0xbb, 0xbf, 0x40))).toBe('@');
  });

  it('refuses a file in another encoding, or a binary one, saying what to do', () => {
    expect(() => decodeZoneFile(bytes(0x61, 0x20, 0xe9, 0x0a))).toThrow(/not UTF-8 text.*\\DDD/);
    expect(() => decodeZoneFile(bytes(0x1f, 0x8b, 0x08, 0x00))).toThrow(/binary/);
  });
});
