/**
 * Substring and prefix searches read an index (migration 0020: FTS5 trigram on SQLite,
 * pg_trgm on PostgreSQL), and answer exactly what a scan answers: the same records, in the same
 * order, paged alike. Random records and terms — LIKE's metacharacters (`%`, `_`, `\`), quotes,
 * non-ASCII letters in both cases, terms of one and two characters — against a brute-force filter
 * of every record. SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FoundRecord, TextMatch } from '../../store/types/across-zones';
import { trigramQuery } from '../../store/repos/template-repos';
import { createTestApp, type TestApp } from '../../testing/test-app';

let t: TestApp;
let userId: number;
let token: string;
const ZONES = ['idx-a.example', 'bx-1.idx.example', 'c.example'];

/** A small deterministic generator (the same records and terms on every run). */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}
const rand = rng(20261126);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
const CONTENT_CHARS = ['a', 'b', 'c', 'A', 'B', 'x', '1', '.', ' ', '%', '_', '\\\\', '\\"', 'é', 'É', 'ß', 'ǅ', 'ǆ', '日'];
const LABEL_CHARS = ['a', 'b', 'c', 'x', '1', '-', '_'];
const word = (chars: readonly string[], min: number, max: number) => Array.from({ length: min + Math.floor(rand() * (max - min + 1)) }, () => pick(chars)).join('');

beforeAll(async () => {
  t = await createTestApp();
  const { user } = await t.services.accounts.addUser('carol');
  userId = user.id;
  token = (await t.services.accounts.createToken(user.id, 'test')).token;
  for (const name of ZONES) {
    expect((await t.request('POST', '/api/v1/domains', { token, body: { name } })).status).toBe(201);
    const names = new Set<string>(['@']);
    while (names.size < 25) names.add(`${word(LABEL_CHARS.slice(0, 5), 1, 1)}${word(LABEL_CHARS, 0, 4)}${word(LABEL_CHARS.slice(0, 5), 1, 1)}`);
    const rrsets = [...names].map((n) => ({
      name: n,
      record_type: 'TXT',
      ttl: '300',
      changetype: 'REPLACE',
      records: [...new Set(Array.from({ length: 1 + Math.floor(rand() * 3) }, () => `"${word(CONTENT_CHARS, 1, 12)}"`))],
    }));
    // Letters whose case only a Unicode-aware fold ignores: the trigram index folds them, LIKE on SQLite does not.
    if (name === ZONES[0]) rrsets.push({ name: 'fold', record_type: 'TXT', ttl: '300', changetype: 'REPLACE', records: ['"ééé ǆǆǆ abc"'] });
    const res = await t.request('PATCH', `/api/v1/domains/${name}/rrsets`, { token, body: { rrsets } });
    expect(res.status, await res.clone().text()).toBe(200);
  }
});
afterAll(() => t.close());

const asker = () => ({ userId });
const search = (q: { name?: string; content?: string; match: TextMatch }, w = { offset: 0, limit: 10_000 }) => t.services.recordSearch.search(asker(), q, w);
const fqdn = (r: FoundRecord) => (r.name === '@' ? r.zone : `${r.name}.${r.zone}`);
const key = (r: FoundRecord) => `${r.zone} ${r.name} ${r.record_type} ${r.id} ${r.content}`;

describe('the search index answers as a scan does', () => {
  it('builds an FTS string literal with its quotes doubled, and none for terms the trigrams cannot answer', () => {
    expect(trigramQuery('ab"c')).toBe('"ab""c"');
    expect(trigramQuery('" OR *')).toBe('""" OR *"');
    expect(trigramQuery('ab')).toBeUndefined();
    expect(trigramQuery('日本')).toBeUndefined();
    expect(trigramQuery('a\0b')).toBeUndefined();
  });

  it('finds by name and content substring and prefix exactly the records a brute-force filter finds, in the same order and pages', async () => {
    const every = (await search({ match: 'contains' })).rows;
    expect(every.length).toBeGreaterThan(3 * 25);
    // Case: ASCII letters fold on both stores; whether others do is the database's (SQLite: never;
    // PostgreSQL's ILIKE: as its ctype says). A probe record tells which.
    expect((await t.request('POST', `/api/v1/domains/${ZONES[2]}/records`, { token, body: { name: 'probe', record_type: 'TXT', content: '"ÉPROBE"' } })).ok).toBe(true);
    const unicodeFold = (await search({ content: 'éprobe', match: 'contains' })).rows.length === 1;
    const all = (await search({ match: 'contains' })).rows;
    const asciiLower = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());
    const fold = unicodeFold ? (s: string) => s.toLowerCase() : asciiLower;

    const contents = [...new Set(all.map((r) => r.content))];
    const names = [...new Set(all.map(fqdn))];
    const slice = (s: string) => {
      const cs = [...s];
      const from = Math.floor(rand() * cs.length);
      return cs.slice(from, from + 1 + Math.floor(rand() * 6)).join('');
    };
    const contentTerms = new Set(['%', '_', '\\', '"', 'é', 'É', 'ß', 'a%', '_a', 'ab', 'é"', 'ÉÉÉ', 'ǄǄǄ', 'ǅǅǅ', 'ÉÉÉ ǅ', 'xx_', '%%%', '\\\\"', 'zzzz', '日日日']);
    while (contentTerms.size < 80)
      contentTerms.add(
        rand() < 0.5
          ? slice(pick(contents))
          : word(
              CONTENT_CHARS.map((c) => c.replace(/^\\/, '')),
              1,
              5,
            ),
      );
    const nameTerms = new Set(['_', '%', 'a_', '_x', 'bx-', '.idx', 'ex', '\\', 'b%', 'idx-a', 'IDX-A.EX', 'zzz']);
    while (nameTerms.size < 60) nameTerms.add(rand() < 0.7 ? slice(pick(names)) : word([...LABEL_CHARS, '.', '%'], 1, 5));

    let checked = 0;
    for (const match of ['contains', 'prefix'] as const) {
      const holds = (text: string, term: string) => (match === 'prefix' ? text.startsWith(term) : text.includes(term));
      for (const raw of contentTerms) {
        const term = raw.trim();
        if (!term) continue;
        const want = all.filter((r) => holds(fold(r.content), fold(term))).map(key);
        const got = (await search({ content: raw, match })).rows.map(key);
        expect(got, `content ${match} ${JSON.stringify(raw)}`).toEqual(want);
        checked += want.length;
      }
      for (const raw of nameTerms) {
        const term = raw.toLowerCase().replace(/\.$/, '');
        const want = all.filter((r) => holds(fqdn(r), term)).map(key);
        const got = (await search({ name: raw, match })).rows.map(key);
        expect(got, `name ${match} ${JSON.stringify(raw)}`).toEqual(want);
        checked += want.length;
      }
    }
    // The terms found something: a filter that drops everything would not pass.
    expect(checked).toBeGreaterThan(500);

    // Paging: the pages of an indexed search are the slices of the whole answer.
    const term = 'idx';
    const whole = (await search({ name: term, match: 'contains' })).rows.map(key);
    expect(whole.length).toBeGreaterThan(20);
    const paged: string[] = [];
    for (let offset = 0; offset < whole.length; offset += 7) {
      const page = await search({ name: term, match: 'contains' }, { offset, limit: 7 });
      expect(page.total).toBe(whole.length);
      paged.push(...page.rows.map(key));
    }
    expect(paged).toEqual(whole);
  });

  it('keeps in step with every write: a renamed, changed or deleted record is found as it is now', async () => {
    const zone = ZONES[0]!;
    const put = (records: string[]) =>
      t.request('PATCH', `/api/v1/domains/${zone}/rrsets`, { token, body: { rrsets: [{ name: 'moving', record_type: 'TXT', ttl: '300', changetype: 'REPLACE', records }] } });
    expect((await put(['"needle-one"'])).status).toBe(200);
    expect((await search({ content: 'needle-o', match: 'contains' })).rows.map(fqdn)).toEqual([`moving.${zone}`]);
    expect((await search({ name: 'moving.idx-a', match: 'prefix' })).rows.map((r) => r.content)).toEqual(['needle-one']);
    expect((await put(['"needle-two"'])).status).toBe(200);
    expect((await search({ content: 'needle-o', match: 'contains' })).rows).toEqual([]);
    expect((await search({ content: 'needle-t', match: 'contains' })).rows.map(fqdn)).toEqual([`moving.${zone}`]);
    expect((await put([])).status).toBe(200);
    expect((await search({ content: 'needle', match: 'contains' })).rows).toEqual([]);
    expect((await search({ name: 'moving', match: 'contains' })).rows).toEqual([]);
    // A record renamed in place (an update of its row) is found by its new name only.
    const created = await t.request('POST', `/api/v1/domains/${zone}/records`, { token, body: { name: 'before-move', record_type: 'TXT', content: '"needle-three"' } });
    expect(created.ok).toBe(true);
    const { id } = (await created.json()) as { id: number };
    const moved = await t.request('PUT', `/api/v1/domains/${zone}/records/${id}`, { token, body: { name: 'after-move' } });
    expect(moved.status, await moved.clone().text()).toBe(200);
    expect((await search({ name: 'before-move', match: 'contains' })).rows).toEqual([]);
    expect((await search({ name: 'after-move', match: 'contains' })).rows.map((r) => [r.id, fqdn(r)])).toEqual([[id, `after-move.${zone}`]]);
    expect((await search({ content: 'needle-three', match: 'contains' })).rows.map(fqdn)).toEqual([`after-move.${zone}`]);
    // A deleted zone's records leave the index with it.
    expect((await search({ name: 'c.example', match: 'contains' })).rows.length).toBeGreaterThan(0);
    expect((await t.request('DELETE', `/api/v1/domains/${ZONES[2]}`, { token })).ok).toBe(true);
    expect((await search({ name: 'c.example', match: 'contains' })).rows).toEqual([]);
  });
});
