/**
 * Master-file lexer (RFC 1035 §5.1): one entry at a time, each the tokens of a line or of
 * lines joined by parentheses, with `;` comments dropped and whether the entry began with
 * blank space (the previous owner, §5.1). A single pass over the characters, with no
 * regular expression over the text, so a 100k-record file costs linear time and no copies
 * but the tokens of the entry at hand.
 */
import { isSpace, scanToken, type Token } from '../rdata/presentation';

export interface Entry {
  /** Line where the entry starts (1-based). */
  line: number;
  /** The entry starts with blank space: its owner is the previous one. */
  blankOwner: boolean;
  tokens: Token[];
  /** A syntax error that spoils the entry (unclosed quote or parenthesis). */
  error?: string;
}

const NL = 0x0a;
const SEMI = 0x3b;
const OPEN = 0x28;
const CLOSE = 0x29;

export class ZoneLexer {
  private pos = 0;
  private line = 1;

  constructor(private readonly text: string) {
    if (text.charCodeAt(0) === 0xfeff) this.pos = 1; // byte order mark
  }

  /** The next entry with tokens (or an error), or null at the end. */
  next(): Entry | null {
    const text = this.text;
    for (;;) {
      if (this.pos >= text.length) return null;
      const startLine = this.line;
      const c0 = text.charCodeAt(this.pos);
      const entry: Entry = { line: startLine, blankOwner: c0 !== NL && isSpace(c0), tokens: [] };
      let depth = 0;
      while (this.pos < text.length) {
        const c = text.charCodeAt(this.pos);
        if (c === NL) {
          this.line++;
          this.pos++;
          if (depth === 0) break;
          continue;
        }
        if (isSpace(c)) {
          this.pos++;
          continue;
        }
        if (c === SEMI) {
          const nl = text.indexOf('\n', this.pos);
          this.pos = nl < 0 ? text.length : nl;
          continue;
        }
        if (c === OPEN) {
          depth++;
          this.pos++;
          continue;
        }
        if (c === CLOSE) {
          this.pos++;
          if (depth === 0) {
            entry.error ??= '")" without an opening "("';
            continue;
          }
          depth--;
          continue;
        }
        const { end, quoted } = scanToken(text, this.pos, true);
        if (end < 0) {
          entry.error ??= 'a quoted string is not closed on its line';
          this.skipLine();
          break;
        }
        entry.tokens.push({ text: text.slice(this.pos, end), quoted, line: this.line });
        this.pos = end;
      }
      if (depth > 0 && this.pos >= text.length) entry.error ??= '"(" is never closed';
      if (entry.tokens.length > 0 || entry.error) return entry;
    }
  }

  private skipLine(): void {
    const nl = this.text.indexOf('\n', this.pos);
    this.pos = nl < 0 ? this.text.length : nl + 1;
    this.line++;
  }
}
