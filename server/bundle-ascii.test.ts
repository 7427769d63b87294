/**
 * The built bundles are pure ASCII, so that V8 holds each source as one byte a character (a single
 * "§" in a kept comment doubled the main thread's 4.6 MB of source); a character in code is never
 * rewritten: the build fails instead.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { asciiOnly } from '../scripts/build-server.mjs';

const BUILD = path.join(import.meta.dirname, '..', 'build');

describe('the built bundles', () => {
  it('hold no character outside ASCII', () => {
    for (const file of ['server.js', 'dns-worker.js', 'dns-udp.js', 'cli.js']) {
      const text = fs.readFileSync(path.join(BUILD, file), 'utf8');
      expect(text.length, file).toBeGreaterThan(1000);
      expect(text.match(/[^\x00-\x7f]/)?.[0], file).toBeUndefined();
    }
  });

  it('keep their columns when a comment loses its non-ASCII characters, and refuse one in code', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zonedeck-ascii-'));
    try {
      const comment = path.join(dir, 'comment.js');
      const source = 'const a = 1; // RFC 1035 §2.3.1 — LDH 🙂\nexport { a };\n';
      fs.writeFileSync(comment, source);
      asciiOnly(comment);
      const out = fs.readFileSync(comment, 'utf8');
      expect(out).toBe('const a = 1; // RFC 1035 ?2.3.1 ? LDH ??\nexport { a };\n');
      expect(out.length).toBe(source.length);

      const code = path.join(dir, 'code.js');
      fs.writeFileSync(code, 'export const dash = "—"; // §\n');
      expect(() => asciiOnly(code)).toThrow(/non-ASCII character outside a comment/);
      expect(fs.readFileSync(code, 'utf8')).toBe('export const dash = "—"; // §\n');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
