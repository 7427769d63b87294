/** The rules across records (DESIGN.md §12) hold for every write: DS only at a delegation, DNAME alone and with nothing below. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
  await t.user('alice');
  await t.request('POST', '/api/v1/domains', { body: { name: 'example.com' } });
});
afterEach(() => t.close());

const Z = '/api/v1/domains/example.com';
const DS = '2371 13 2 1F987CC6583E92DF0890718C42E6A44B8A2BB1E5C1D1D7B4C7B2C4DAE6BE1D35';
const add = (name: string, record_type: string, content: string) => t.request('POST', `${Z}/records`, { body: { name, record_type, content } });
const patch = (rrsets: unknown[]) => t.request('PATCH', `${Z}/rrsets`, { body: { rrsets } });
const error = async (res: Response) => ({ status: res.status, ...((await res.json()) as { error: { fields: Record<string, string> } }).error });

describe('DS (RFC 4035 §2.4)', () => {
  it('stands only beside the NS set of a delegation', async () => {
    const lone = await error(await add('child', 'DS', DS));
    expect(lone.status).toBe(400);
    expect(lone.fields.record_type).toMatch(/only at a delegation.*RFC 4035/);
    expect((await error(await add('@', 'DS', DS))).status).toBe(400);
    const both = await patch([
      { name: 'child', record_type: 'NS', changetype: 'REPLACE', records: ['ns1.child.example.net'] },
      { name: 'child', record_type: 'DS', changetype: 'REPLACE', records: [DS] },
    ]);
    expect(both.status).toBe(200);
    // Taking the NS set away leaves the DS alone: refused.
    const orphan = await error(await patch([{ name: 'child', record_type: 'NS', changetype: 'DELETE' }]));
    expect(orphan).toMatchObject({ status: 400, fields: { 'rrsets.0': expect.stringMatching(/RFC 4035/) } });
  });
});

describe('DNAME (RFC 6672 §2.4)', () => {
  it('has nothing below it, and nothing can be added below it', async () => {
    expect((await add('www.old', 'A', '192.0.2.1')).status).toBe(200);
    const over = await error(await add('old', 'DNAME', 'new.example.net'));
    expect(over.status).toBe(400);
    expect(Object.values(over.fields).join()).toMatch(/below the DNAME.*RFC 6672/);
    expect((await add('moved', 'DNAME', 'new.example.net')).status).toBe(200);
    const under = await error(await add('a.moved', 'A', '192.0.2.1'));
    expect(under.status).toBe(400);
    expect(under.fields.name).toMatch(/below the DNAME at moved\.example\.com/);
    expect((await add('moved', 'DNAME', 'other.example.net')).status).toBe(400);
  });
});
