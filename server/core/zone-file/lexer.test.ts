import { describe, expect, it } from 'vitest';
import { ZoneLexer, type Entry } from './lexer';

function entries(text: string): Array<Omit<Entry, 'tokens'> & { tokens: string[] }> {
  const lexer = new ZoneLexer(text);
  const out = [];
  for (let e = lexer.next(); e; e = lexer.next()) out.push({ ...e, tokens: e.tokens.map((t) => t.text) });
  return out;
}

describe('master-file lexer', () => {
  it('splits lines into tokens, drops comments and blank lines, and marks blank owners', () => {
    expect(entries('www  300 IN A 192.0.2.1 ; web\n\n; only a comment\n\tAAAA 2001:db8::1\r\n')).toEqual([
      { line: 1, blankOwner: false, tokens: ['www', '300', 'IN', 'A', '192.0.2.1'] },
      { line: 4, blankOwner: true, tokens: ['AAAA', '2001:db8::1'] },
    ]);
  });

  it('joins lines inside parentheses, keeping the first line number', () => {
    const text = '@ SOA ns1 host (\n  1 ; serial\n  2 3 4\n  5 )\nwww A 192.0.2.1\n';
    expect(entries(text)).toEqual([
      { line: 1, blankOwner: false, tokens: ['@', 'SOA', 'ns1', 'host', '1', '2', '3', '4', '5'] },
      { line: 5, blankOwner: false, tokens: ['www', 'A', '192.0.2.1'] },
    ]);
  });

  it('keeps quoted strings whole, with ; ( ) and escapes inside, and knows a token that is one quoted string', () => {
    const lexer = new ZoneLexer('t TXT "a;b (c)" "q\\"x" \\"bare alpn="h2,h3"\n');
    const tokens = lexer.next()!.tokens;
    expect(tokens.map((t) => t.text)).toEqual(['t', 'TXT', '"a;b (c)"', '"q\\"x"', '\\"bare', 'alpn="h2,h3"']);
    expect(tokens.map((t) => t.quoted)).toEqual([false, false, true, true, false, false]);
  });

  it('reports an unclosed quote on its line and goes on with the next', () => {
    expect(entries('a TXT "open\nb A 192.0.2.1\n')).toEqual([
      { line: 1, blankOwner: false, tokens: ['a', 'TXT'], error: 'a quoted string is not closed on its line' },
      { line: 2, blankOwner: false, tokens: ['b', 'A', '192.0.2.1'] },
    ]);
  });

  it('reports parentheses that do not match', () => {
    expect(entries('a TXT ( "x"\n')[0]!.error).toBe('"(" is never closed');
    expect(entries('a TXT "x" )\n')[0]!.error).toBe('")" without an opening "("');
  });

  it('skips a byte order mark and reads a last line without a newline', () => {
    expect(entries('\ufeffwww A 192.0.2.1')).toEqual([{ line: 1, blankOwner: false, tokens: ['www', 'A', '192.0.2.1'] }]);
  });
});
