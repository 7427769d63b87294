/**
 * The zone draft on its own, over a real SQLite file: every rule it judges of a zone as it will be
 * (CNAME exclusivity both ways, the apex, the managed NS set, DS, DNAME, ALIAS, wildcards judged as
 * names like any other), and the writes and history it turns an edit into. No HTTP, no change set:
 * a draft is built on the stored zone, edited, and validated or written out.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { Conflict, Invalid } from '../../core/errors';
import { openStore } from '../../store/open';
import type { DomainRow, Store } from '../../store/types';
import { servicesFor, type Services } from '..';
import { ZoneDraft, type Entry } from './zone-draft';

let dir: string;
let config: ReturnType<typeof loadConfig>;
let store: Store;
let services: Services;
let userId: number;
let zone: DomainRow;
let n = 0;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zonedeck-draft-'));
  config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent' });
  store = await openStore(config);
  services = servicesFor(store, config);
  userId = (await store.users.insert({ username: 'alice', password_hash: 'none', created_at: new Date().toISOString() })).id;
});
afterAll(async () => {
  await store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A fresh zone per test holding these RRsets ([name, type, ...contents]), written as a change set. */
beforeEach(() => {
  n += 1;
});
async function zoneWith(...sets: Array<[string, string, ...string[]]>): Promise<DomainRow> {
  const name = `z${n}.example`;
  await services.zones.create(userId, { name });
  if (sets.length > 0) {
    await services.rrsets.patch(
      userId,
      name,
      sets.map(([rname, type, ...records]) => ({ name: rname, record_type: type, changetype: 'REPLACE' as const, ttl: '300', records })),
      { source: 'cli', actor: { username: '', credential: 'cli' } },
    );
  }
  zone = (await store.domains.byName(name))!;
  return zone;
}

/** A draft of the zone with these names loaded; `aliasResolver` as when RESOLVER is set. */
async function draftOf(names: string[], options: { aliasResolver?: boolean; aliasDeny?: string[] } = {}): Promise<ZoneDraft> {
  const draft = new ZoneDraft(services.store, zone, options);
  await draft.load(names);
  return draft;
}

const rr = (...contents: string[]): Entry[] => contents.map((content) => ({ content, ttl: 300 }));

/** What validate throws: the error and its fields (null when the draft is valid). */
async function refusal(draft: ZoneDraft): Promise<{ error: unknown; fields: Record<string, string> } | null> {
  try {
    await draft.validate();
    return null;
  } catch (e) {
    return { error: e, fields: (e as Invalid).fields ?? {} };
  }
}

describe('CNAME exclusivity', () => {
  it('refuses a CNAME beside existing data, blaming the new CNAME', async () => {
    await zoneWith(['www', 'A', '192.0.2.1']);
    const draft = await draftOf(['www']);
    draft.put('www', 'CNAME', rr('target.example.net'), 300);
    const r = await refusal(draft);
    expect(r?.error).toBeInstanceOf(Conflict);
    expect(r?.fields.record_type).toMatch(/A records exist at www\.z\d+\.example; a CNAME must be the only record/);
  });

  it('refuses data beside an existing CNAME, blaming the name', async () => {
    await zoneWith(['alias', 'CNAME', 'target.example.net']);
    const draft = await draftOf(['alias']);
    draft.put('alias', 'TXT', rr('"hello"'), 300);
    const r = await refusal(draft);
    expect(r?.error).toBeInstanceOf(Conflict);
    expect(r?.fields.name).toMatch(/has a CNAME record; no other record can stand beside it/);
  });

  it('refuses a second CNAME at one name', async () => {
    await zoneWith(['alias', 'CNAME', 'one.example.net']);
    const draft = await draftOf(['alias']);
    draft.put('alias', 'CNAME', rr('one.example.net', 'two.example.net'), 300);
    expect((await refusal(draft))?.fields.record_type).toMatch(/a CNAME record already exists/);
  });

  it('lets a CNAME replace the data at its name within one change, and judges a wildcard like any name', async () => {
    await zoneWith(['www', 'A', '192.0.2.1'], ['*', 'A', '192.0.2.9']);
    const draft = await draftOf(['www', '*']);
    draft.put('www', 'A', [], 300);
    draft.put('www', 'CNAME', rr('target.example.net'), 300);
    expect(await refusal(draft)).toBeNull();
    draft.put('*', 'CNAME', rr('target.example.net'), 300);
    expect((await refusal(draft))?.error).toBeInstanceOf(Conflict);
  });

  it('counts a disabled record as data: a CNAME may not join it', async () => {
    await zoneWith();
    const draft = await draftOf(['www']);
    draft.put('www', 'A', [{ content: '192.0.2.1', ttl: 300, disabled: true }], 300);
    draft.put('www', 'CNAME', rr('target.example.net'), 300);
    expect((await refusal(draft))?.error).toBeInstanceOf(Conflict);
  });
});

describe('the apex', () => {
  it('refuses a CNAME at the apex (beside the NS set, and on an apex without one) and a DS there', async () => {
    await zoneWith();
    const cname = await draftOf(['@']);
    cname.put('@', 'CNAME', rr('target.example.net'), 300);
    expect((await refusal(cname))?.fields.record_type).toMatch(/NS records exist at z\d+\.example; a CNAME must be the only record/);
    const bare = await draftOf(['@']);
    bare.system = true;
    bare.put('@', 'NS', [], 0);
    bare.put('@', 'CNAME', rr('target.example.net'), 300);
    const r = await refusal(bare);
    expect(r?.error).toBeInstanceOf(Invalid);
    expect(r?.fields.record_type).toBe('a CNAME record cannot stand at the zone apex (RFC 1034 §3.6.2)');
    const ds = await draftOf(['@']);
    ds.put('@', 'DS', rr('12345 13 2 ' + 'ab'.repeat(32)), 300);
    expect((await refusal(ds))?.fields.record_type).toMatch(/belongs in the parent zone/);
  });

  it("keeps the apex NS set to the service: changed, disabled or removed is refused; at creation it is the service's to write", async () => {
    await zoneWith();
    const stored = (await draftOf(['@'])).rrset('@', 'NS');
    expect(stored.length).toBeGreaterThan(0);
    for (const edit of [
      (d: ZoneDraft) => d.put('@', 'NS', [...stored, { content: 'ns.elsewhere.example', ttl: stored[0]!.ttl }], stored[0]!.ttl),
      (d: ZoneDraft) =>
        d.put(
          '@',
          'NS',
          stored.map((e, i) => (i === 0 ? { ...e, disabled: true } : e)),
          stored[0]!.ttl,
        ),
      (d: ZoneDraft) => d.put('@', 'NS', [], 0),
      (d: ZoneDraft) => d.put('@', 'NS', stored, stored[0]!.ttl + 1),
    ]) {
      const draft = await draftOf(['@']);
      edit(draft);
      expect((await refusal(draft))?.fields.record_type).toBe('the NS set at the apex is managed by zonedeck');
    }
    const system = await draftOf(['@']);
    system.system = true;
    system.put('@', 'NS', rr('ns.elsewhere.example'), 300);
    expect(await refusal(system)).toBeNull();
    // The same set written again is no change of it.
    const same = await draftOf(['@']);
    same.put('@', 'NS', stored, stored[0]!.ttl);
    expect(await refusal(same)).toBeNull();
  });
});

describe('delegations and DS', () => {
  it('takes a DS only at a delegation: refused alone, admitted with the NS in the same change', async () => {
    await zoneWith();
    const ds = rr('12345 13 2 ' + 'ab'.repeat(32));
    const alone = await draftOf(['sub']);
    alone.put('sub', 'DS', ds, 300);
    expect((await refusal(alone))?.fields.record_type).toMatch(/a DS record stands only at a delegation/);
    const cut = await draftOf(['sub']);
    cut.put('sub', 'NS', rr('ns1.elsewhere.example'), 300);
    cut.put('sub', 'DS', ds, 300);
    expect(await refusal(cut)).toBeNull();
  });
});

describe('DNAME', () => {
  it('refuses a DNAME over names that exist below it, naming one of them', async () => {
    await zoneWith(['host.old', 'A', '192.0.2.1']);
    const draft = await draftOf(['old']);
    draft.put('old', 'DNAME', rr('new.example.net'), 300);
    const r = await refusal(draft);
    expect(r?.error).toBeInstanceOf(Invalid);
    expect(r?.fields.name).toMatch(/host\.old\.z\d+\.example is below the DNAME at old\.z\d+\.example/);
  });

  it('refuses a name below an existing DNAME, wildcards included', async () => {
    await zoneWith(['old', 'DNAME', 'new.example.net']);
    for (const name of ['host.old', '*.old', 'deep.host.old']) {
      const draft = await draftOf([name]);
      draft.put(name, 'A', rr('192.0.2.1'), 300);
      expect((await refusal(draft))?.fields.name).toMatch(/nothing may exist below a DNAME/);
    }
    // Beside it, not below: fine.
    const beside = await draftOf(['older']);
    beside.put('older', 'A', rr('192.0.2.1'), 300);
    expect(await refusal(beside)).toBeNull();
  });

  it('refuses two DNAMEs at a name, and a DNAME beside a delegation', async () => {
    await zoneWith(['sub', 'NS', 'ns1.elsewhere.example']);
    const two = await draftOf(['old']);
    two.put('old', 'DNAME', rr('a.example.net', 'b.example.net'), 300);
    expect((await refusal(two))?.fields.record_type).toMatch(/only one DNAME/);
    const beside = await draftOf(['sub']);
    beside.put('sub', 'DNAME', rr('a.example.net'), 300);
    expect((await refusal(beside))?.fields.record_type).toMatch(/cannot stand beside the NS records of a delegation/);
  });

  it('judges many new DNAMEs at once by reading the zone whole', async () => {
    await zoneWith(['x.d7', 'TXT', '"below"']);
    const names = Array.from({ length: 20 }, (_, i) => `d${i}`);
    const draft = await draftOf(names);
    for (const name of names) draft.put(name, 'DNAME', rr(`${name}.example.net`), 300);
    expect((await refusal(draft))?.fields.name).toMatch(/x\.d7\.z\d+\.example is below the DNAME/);
    // One read of the zone, not a suffix scan of it per DNAME.
    expect(draft.whole).toBe(true);
  });
});

describe('ALIAS', () => {
  it('is refused without a resolver, and admitted with one', async () => {
    await zoneWith();
    const without = await draftOf(['www']);
    without.put('www', 'ALIAS', rr('target.example.net'), 300);
    expect((await refusal(without))?.fields.record_type).toMatch(/RESOLVER/);
    const withResolver = await draftOf(['www'], { aliasResolver: true });
    withResolver.put('www', 'ALIAS', rr('target.example.net'), 300);
    expect(await refusal(withResolver)).toBeNull();
  });

  it('refuses a target that only internal resolvers answer, and one under ALIAS_DENY', async () => {
    await zoneWith();
    for (const [target, deny] of [
      ['printer.local', []],
      ['db.corp.example.net', ['corp.example.net']],
    ] as const) {
      const draft = await draftOf(['www'], { aliasResolver: true, aliasDeny: [...deny] });
      draft.put('www', 'ALIAS', rr(target), 300);
      expect((await refusal(draft))?.fields.content).toMatch(/resolves only inside a network|ALIAS_DENY/);
    }
  });

  it('refuses an A beside an ALIAS, an ALIAS below a delegation, and a delegation over an ALIAS', async () => {
    await zoneWith(['dept', 'NS', 'ns1.elsewhere.example']);
    const beside = await draftOf(['www'], { aliasResolver: true });
    beside.put('www', 'ALIAS', rr('target.example.net'), 300);
    beside.put('www', 'A', rr('192.0.2.1'), 300);
    expect((await refusal(beside))?.fields.record_type).toMatch(/no A or AAAA record can stand beside it/);

    const below = await draftOf(['x.dept'], { aliasResolver: true });
    below.put('x.dept', 'ALIAS', rr('target.example.net'), 300);
    expect((await refusal(below))?.fields.name).toMatch(/below the delegation at dept\./);

    const first = await draftOf(['y.team'], { aliasResolver: true });
    first.put('y.team', 'ALIAS', rr('target.example.net'), 300);
    expect(await refusal(first)).toBeNull();
  });

  it('refuses a new delegation above a stored ALIAS', async () => {
    await zoneWith();
    // The ALIAS written by the service of an operator who set RESOLVER.
    const resolving = servicesFor(store, { ...config, resolver: '127.0.0.1:1' });
    await resolving.rrsets.patch(userId, zone.name, [{ name: 'x.team', record_type: 'ALIAS', changetype: 'REPLACE', records: ['target.example.net'] }], {
      source: 'cli',
      actor: { username: '', credential: 'cli' },
    });
    const draft = await draftOf(['team'], { aliasResolver: true });
    draft.put('team', 'NS', rr('ns1.elsewhere.example'), 300);
    expect((await refusal(draft))?.fields.name).toMatch(/x\.team\.z\d+\.example is below the delegation at team\./);
  });
});

describe('writes and history', () => {
  it('updates a record in place (its id kept), deletes and inserts, and lists a TTL change as removed and added', async () => {
    await zoneWith(['www', 'A', '192.0.2.1', '192.0.2.2'], ['mail', 'TXT', '"v=spf1 -all"']);
    const draft = await draftOf(['www', 'mail', 'new']);
    const [one, two] = draft.rrset('www', 'A');
    // .1 becomes .3 in its row; .2 goes; the set's TTL moves to 600.
    draft.put('www', 'A', [{ content: '192.0.2.3', ttl: 600, id: one!.id }], 600);
    draft.put('new', 'AAAA', rr('2001:db8::1'), 300);
    draft.put('mail', 'TXT', draft.rrset('mail', 'TXT'), 300);
    const w = await draft.writes('2030-01-01T00:00:00.000Z');
    expect(w.updates).toEqual([{ id: one!.id, patch: expect.objectContaining({ name: 'www', content: '192.0.2.3', ttl: 600 }) }]);
    expect(w.deletes).toEqual([two!.id]);
    expect(w.inserts).toEqual([expect.objectContaining({ name: 'new', record_type: 'AAAA', content: '2001:db8::1', domain_id: zone.id })]);
    expect(w.removed).toEqual(
      expect.arrayContaining([
        { name: 'www', record_type: 'A', ttl: 300, content: '192.0.2.1' },
        { name: 'www', record_type: 'A', ttl: 300, content: '192.0.2.2' },
      ]),
    );
    expect(w.added).toEqual(
      expect.arrayContaining([
        { name: 'www', record_type: 'A', ttl: 600, content: '192.0.2.3' },
        { name: 'new', record_type: 'AAAA', ttl: 300, content: '2001:db8::1' },
      ]),
    );
    // The TXT set written again as it was is no change.
    expect(w.names.sort()).toEqual(['new', 'www']);
  });

  it('keeps a disabled flag in the history and writes nothing for a draft left as loaded', async () => {
    await zoneWith(['www', 'A', '192.0.2.1']);
    const untouched = await draftOf(['www']);
    expect(await untouched.writes('2030-01-01T00:00:00.000Z')).toMatchObject({ deletes: [], inserts: [], updates: [], added: [], removed: [] });
    const draft = await draftOf(['www']);
    draft.put(
      'www',
      'A',
      draft.rrset('www', 'A').map((e) => ({ ...e, disabled: true })),
      300,
    );
    const w = await draft.writes('2030-01-01T00:00:00.000Z');
    expect(w.added).toEqual([{ name: 'www', record_type: 'A', ttl: 300, content: '192.0.2.1', disabled: true }]);
    expect(w.updates[0]?.patch.disabled).toBe(1);
  });

  it('finds a record by id where it was seen, or wherever it moved, and nothing once it is gone', async () => {
    await zoneWith(['www', 'A', '192.0.2.1']);
    const id = (await draftOf(['www'])).rrset('www', 'A')[0]!.id!;
    expect((await (await draftOf([])).record(id, 'www'))?.content).toBe('192.0.2.1');
    // Seen at another name: read by id, and its name loaded for the edit.
    const moved = await draftOf([]);
    const found = await moved.record(id, 'elsewhere');
    expect(found?.name).toBe('www');
    expect(moved.rrset('www', 'A')).toHaveLength(1);
    expect(await (await draftOf([])).record(id + 1000, 'www')).toBeUndefined();
  });

  it('refuses to edit a name it has not loaded', async () => {
    await zoneWith();
    const draft = await draftOf(['www']);
    expect(() => draft.put('other', 'A', rr('192.0.2.1'), 300)).toThrow(/was not loaded/);
  });
});
