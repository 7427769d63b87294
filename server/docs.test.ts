/**
 * The documentation stays true to the code: every relative link in README.md and
 * docs/ leads to a file that exists (and, with a #fragment, to a heading in it), and every
 * environment variable server/config.ts reads is documented in exactly one table row.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const DOCS = [
  'README.md',
  ...fs
    .readdirSync(path.join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const text = new Map(DOCS.map((f) => [f, fs.readFileSync(path.join(ROOT, f), 'utf8')]));

/** The text outside fenced code blocks, where a link or a table row is prose. */
function prose(md: string): string {
  return md.replace(/^```[^\n]*\n[\s\S]*?^```[^\n]*$/gm, '');
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchors(md: string): Set<string> {
  const out = new Set<string>();
  const seen = new Map<string, number>();
  for (const m of prose(md).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = slug(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

describe('the documentation', () => {
  it('every relative link in README.md and docs/ resolves, fragments included', () => {
    const broken: string[] = [];
    let checked = 0;
    for (const [file, md] of text) {
      for (const m of prose(md).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
        const target = m[1]!;
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto:
        checked++;
        const [rel, fragment] = target.split('#') as [string, string | undefined];
        const resolved = rel === '' ? file : path.normalize(path.join(path.dirname(file), decodeURIComponent(rel)));
        const abs = path.join(ROOT, resolved);
        if (!fs.existsSync(abs)) {
          broken.push(`${file}: ${target} (no ${resolved})`);
          continue;
        }
        if (fragment && resolved.endsWith('.md')) {
          const md2 = text.get(resolved) ?? fs.readFileSync(abs, 'utf8');
          if (!anchors(md2).has(fragment)) broken.push(`${file}: ${target} (no heading #${fragment} in ${resolved})`);
        }
      }
    }
    expect(broken).toEqual([]);
    expect(checked).toBeGreaterThan(50);
  });

  it('every environment variable server/config.ts reads is documented in exactly one table row', () => {
    const config = fs.readFileSync(path.join(ROOT, 'server/config.ts'), 'utf8');
    const schema = config.slice(config.indexOf('z.object({'));
    const vars = [...new Set([...schema.matchAll(/^ {2}([A-Z][A-Z0-9_]+):/gm)].map((m) => m[1]!))];
    expect(vars.length).toBeGreaterThan(30);
    const rows = new Map<string, string[]>();
    for (const [file, md] of text) {
      // The first cell of a row names one variable or several (`HOST` / `PORT`).
      for (const m of prose(md).matchAll(/^\|([^|\n]+)\|/gm)) {
        for (const v of m[1]!.matchAll(/`([A-Z][A-Z0-9_]+)`/g)) rows.set(v[1]!, [...(rows.get(v[1]!) ?? []), file]);
      }
    }
    const wrong = vars.filter((v) => rows.get(v)?.length !== 1).map((v) => `${v}: ${rows.get(v)?.join(', ') ?? 'not documented'}`);
    expect(wrong).toEqual([]);
  });
});

describe('the repository stands alone', () => {
  it('cites no document or issue tracker it does not hold: every reason is written here', async () => {
    const { execFileSync } = await import('node:child_process');
    const files = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' })
      .split('\n')
      .filter((f) => f && f !== 'package-lock.json' && fs.existsSync(path.join(ROOT, f)));
    // Built from parts, so that this file does not match itself.
    const outside = new RegExp(['DESIGN', 'SPEC'].map((d) => `${d}\\.md`).join('|') + `|\\b[Ii]ssues? [0-9]+|\\b[Ff]indings? [0-9]+`);
    const cited = files.filter((f) => !/\.(png|jpg|ico|woff2?)$/.test(f) && outside.test(fs.readFileSync(path.join(ROOT, f), 'utf8')));
    expect(cited).toEqual([]);
  });
});
