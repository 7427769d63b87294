/**
 * The build (scripts/build-server.mjs): the bundles are pure ASCII, so that V8 holds each source as
 * one byte a character (a single "§" in a kept comment doubled the main thread's 4.6 MB of source),
 * and a character in code is never rewritten (the build fails instead); the files Node is asked to
 * run keep V8's compiled code of their bundle between runs, in a directory no one else may write.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { asciiOnly, BUNDLES } from '../scripts/build-server.mjs';
import { privateDir } from './compile-cache';

const BUILD = path.join(import.meta.dirname, '..', 'build');

describe('the built bundles', () => {
  it('hold no character outside ASCII', () => {
    for (const file of BUNDLES) {
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

  it("are run through a launcher that keeps V8's compiled code in a directory of this user's own", () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'zonedeck-tmpdir-'));
    const cache = path.join(tmp, `zonedeck-compile-cache-${process.getuid!()}`);
    const cli = () => {
      const env: Record<string, string | undefined> = { ...process.env, TMPDIR: tmp };
      delete env.NODE_COMPILE_CACHE;
      const run = spawnSync(process.execPath, [path.join(BUILD, 'cli.js'), '--help'], { env, encoding: 'utf8' });
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout).toMatch(/users add <username>/);
    };
    const largest = () =>
      Math.max(
        0,
        ...fs
          .readdirSync(cache, { recursive: true, withFileTypes: true })
          .filter((e) => e.isFile())
          .map((e) => fs.statSync(path.join(e.parentPath, e.name)).size),
      );
    try {
      cli();
      expect(fs.statSync(cache).mode & 0o777).toBe(0o700);
      // The CLI's bundle compiled once is kept: an entry of hundreds of kilobytes.
      expect(largest()).toBeGreaterThan(100_000);

      // A directory others may write is not trusted with code: no cache at all.
      fs.rmSync(cache, { recursive: true });
      fs.mkdirSync(cache);
      fs.chmodSync(cache, 0o777);
      cli();
      expect(largest()).toBe(0);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});

describe('the compile cache directory', () => {
  const uid = process.getuid!();
  it('is made 0700, and refused when others may write it, when it is a symlink or when another user owns it', () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'zonedeck-private-'));
    try {
      const own = path.join(tmp, 'own');
      expect(privateDir(own, uid)).toBe(own);
      expect(fs.statSync(own).mode & 0o777).toBe(0o700);
      expect(privateDir(own, uid)).toBe(own);
      expect(privateDir(own, uid + 1)).toBeNull();

      const open = path.join(tmp, 'open');
      fs.mkdirSync(open);
      fs.chmodSync(open, 0o775);
      expect(privateDir(open, uid)).toBeNull();

      const link = path.join(tmp, 'link');
      fs.symlinkSync(own, link);
      expect(privateDir(link, uid)).toBeNull();
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});
