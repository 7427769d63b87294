/** The rules across records hold for every write: DS only at a delegation, DNAME alone and with nothing below. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app';

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

  it('refuses a name any number of labels below a DNAME, by record and by a bulk change of many names', async () => {
    expect((await add('b.c.moved', 'TXT', '"kept"')).status).toBe(200);
    expect((await add('moved', 'DNAME', 'new.example.net')).status).toBe(400);
    expect((await add('c.far', 'A', '192.0.2.1')).status).toBe(200);
    expect((await add('far', 'DNAME', 'new.example.net')).status).toBe(400);
    expect((await add('gone', 'DNAME', 'new.example.net')).status).toBe(200);
    const deep = await error(await add('x.y.z.gone', 'A', '192.0.2.1'));
    expect(deep.fields.name).toMatch(/x\.y\.z\.gone\.example\.com is below the DNAME at gone\.example\.com/);
    // Past 16 names a change loads names and probes the names above them apart: the same rules hold.
    const many = (extra: string[]) => [...Array.from({ length: 20 }, (_, i) => `h${i}.sub${i}`), ...extra].map((name) => ({ name, record_type: 'A', changetype: 'REPLACE', records: ['192.0.2.2'] }));
    const refused = await error(await patch(many(['w.v.gone'])));
    expect(refused.status).toBe(400);
    expect(Object.values(refused.fields).join()).toMatch(/w\.v\.gone\.example\.com is below the DNAME at gone\.example\.com/);
    expect((await t.request('GET', `${Z}/records?name=h0.sub0`)).status).toBe(200);
    expect(await (await t.request('GET', `${Z}/records?name=h0.sub0`)).json()).toEqual([]);
    expect((await patch(many(['w.v.kept']))).status).toBe(200);
    expect(await (await t.request('GET', `${Z}/records?name=h19.sub19`)).json()).toMatchObject([{ content: '192.0.2.2' }]);
    // A DNAME beside other data at a name that is not the apex is fine; names beside it are not below it.
    expect((await add('gone', 'TXT', '"beside"')).status).toBe(200);
    expect((await add('gone2', 'A', '192.0.2.3')).status).toBe(200);
  });
});
