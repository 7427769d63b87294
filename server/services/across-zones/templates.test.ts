/** Templates without HTTP: what one may hold, rendering with variables, apply (preview and write), drift, scopes and teams. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Conflict, Forbidden, Invalid, NotFound } from '../../core/errors';
import type { TemplateRow } from '../../store/types/across-zones';
import type { UserRow } from '../../store/types';
import { serviceHarness, type ServiceHarness } from '../../testing/service-harness';
import type { WriteOptions } from '../changes/change-sets';

let h: ServiceHarness;
let alice: UserRow;
let bob: UserRow;

const as = (u: UserRow): WriteOptions => ({ source: 'api', actor: { userId: u.id, username: u.username, credential: 'token:1' } });
const me = (u: UserRow) => ({ userId: u.id });

async function refusal(p: Promise<unknown>): Promise<Error & { fields?: Record<string, string> }> {
  const outcome = await p.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(outcome instanceof Error)) throw new Error('expected a refusal, got a success');
  return outcome;
}

/** The zone's records as `name type content` lines, sorted, the apex NS set left out. */
async function records(zone: string): Promise<string[]> {
  const row = await h.forge.domains.byName(zone);
  if (!row) throw new Error(`no zone ${zone}`);
  return (await h.forge.records.byDomain(row.id))
    .filter((r) => !(r.name === '@' && r.record_type === 'NS'))
    .map((r) => `${r.name} ${r.record_type} ${r.ttl} ${r.content}`)
    .sort();
}

const WEB = [
  { name: 'www', record_type: 'A', ttl: '300', records: ['{ip}'] },
  { name: '@', record_type: 'MX', records: ['10 mail.{zone}.'] },
  { name: '@', record_type: 'TXT', records: ['"v=spf1 mx -all"'] },
];

async function webTemplate(owner = alice): Promise<TemplateRow> {
  return h.services.templates.create(me(owner), { name: 'web', rrsets: WEB });
}

/** A zone of `owner` made from a template with these variables. */
async function zoneFrom(owner: UserRow, name: string, t: TemplateRow, variables: Record<string, string>) {
  return h.services.zones.create(owner.id, { name }, as(owner), await h.services.templates.forNewZone(owner.id, t.id, variables));
}

beforeEach(async () => {
  h = await serviceHarness({ MAX_RECORDS_PER_ZONE: '20' });
  alice = await h.user('alice');
  bob = await h.user('bob');
});
afterEach(async () => {
  await h.close();
});

describe('what a template may hold', () => {
  it('keeps placeholders, and canonical contents without them', async () => {
    const t = await h.services.templates.create(me(alice), { name: 'web', rrsets: [...WEB, { name: 'v6', record_type: 'AAAA', records: ['2001:DB8:0::1'] }] });
    expect(t.rrsets).toEqual([
      { name: 'www', record_type: 'A', ttl: 300, records: ['{ip}'] },
      { name: '@', record_type: 'MX', ttl: 3600, records: ['10 mail.{zone}.'] },
      { name: '@', record_type: 'TXT', ttl: 3600, records: ['v=spf1 mx -all'] },
      { name: 'v6', record_type: 'AAAA', ttl: 3600, records: ['2001:db8::1'] },
    ]);
  });

  it('never holds the apex NS set, however the apex is spelled', async () => {
    for (const name of ['@', '{zone}.']) {
      const e = await refusal(h.services.templates.create(me(alice), { name: 'ns', rrsets: [{ name, record_type: 'NS', records: ['ns.example.net.'] }] }));
      expect(e).toBeInstanceOf(Invalid);
      expect(e.fields).toEqual({ 'rrsets.0.record_type': 'the NS set at the apex is managed by zonedeck' });
    }
    // A delegation below the apex is a template's to hold.
    expect((await h.services.templates.create(me(alice), { name: 'ns', rrsets: [{ name: 'sub', record_type: 'NS', records: ['ns.example.net.'] }] })).rrsets).toHaveLength(1);
  });

  it('refuses bad names, bad contents, one RRset twice, and more records than a zone may hold', async () => {
    const name = await refusal(h.services.templates.create(me(alice), { name: '-bad', rrsets: WEB }));
    expect(Object.keys(name.fields!)).toEqual(['name']);
    const content = await refusal(h.services.templates.create(me(alice), { name: 'x', rrsets: [{ name: 'www', record_type: 'A', records: ['300.1.1.1'] }] }));
    expect(Object.keys(content.fields!)).toEqual(['rrsets.0.records.0']);
    const twice = await refusal(
      h.services.templates.create(me(alice), {
        name: 'x',
        rrsets: [
          { name: 'www', record_type: 'A', records: ['192.0.2.1'] },
          { name: 'WWW', record_type: 'A', records: ['192.0.2.2'] },
        ],
      }),
    );
    expect(Object.keys(twice.fields!)).toEqual(['rrsets.1.name']);
    const many = await refusal(h.services.templates.create(me(alice), { name: 'x', rrsets: [{ name: 'www', record_type: 'TXT', records: Array.from({ length: 21 }, (_, i) => `"${i}"`) }] }));
    expect(many.fields!.rrsets).toMatch(/holds 21 records; a template holds at most 20/);
  });

  it('names templates once per owner', async () => {
    await webTemplate();
    const e = await refusal(webTemplate());
    expect(e).toBeInstanceOf(Conflict);
    expect((await webTemplate(bob)).name).toBe('web');
  });

  it('takes the RRsets of a zone, its name turned into {zone}', async () => {
    const t = await webTemplate();
    await zoneFrom(alice, 'example.test', t, { ip: '192.0.2.1' });
    const copy = await h.services.templates.create(me(alice), { name: 'copy', from_zone: 'example.test' });
    expect(copy.rrsets.map((s) => [s.name, s.record_type, s.records])).toEqual([
      ['@', 'MX', ['10 mail.{zone}']],
      ['@', 'TXT', ['v=spf1 mx -all']],
      ['www', 'A', ['192.0.2.1']],
    ]);
    expect(await refusal(h.services.templates.create(me(bob), { name: 'copy', from_zone: 'example.test' }))).toBeInstanceOf(NotFound);
  });
});

describe('rendering a template into a zone', () => {
  it('fills {zone} and the variables, and the zone remembers them', async () => {
    const t = await webTemplate();
    await zoneFrom(alice, 'example.test', t, { ip: '192.0.2.7' });
    expect(await records('example.test')).toEqual(['@ MX 3600 10 mail.example.test', '@ TXT 3600 v=spf1 mx -all', 'www A 300 192.0.2.7']);
    const link = await h.services.templates.ofZone(me(alice), 'example.test');
    expect(link).toMatchObject({ template: { id: t.id, name: 'web' }, variables: { ip: '192.0.2.7' }, drifted: false, differences: [] });
  });

  it('refuses a variable the template uses but the request lacks, and a bad value, creating no zone', async () => {
    const t = await webTemplate();
    const missing = await refusal(zoneFrom(alice, 'example.test', t, {}));
    expect(missing).toBeInstanceOf(Invalid);
    expect(missing.fields!['rrsets.0.records.0']).toMatch(/uses \{ip\}, which the variables do not give/);
    const bad = await refusal(zoneFrom(alice, 'example.test', t, { ip: 'not an address' }));
    expect(Object.keys(bad.fields!)).toEqual(['rrsets.0.records.0']);
    const name = await refusal(zoneFrom(alice, 'example.test', t, { IP: '192.0.2.1' }));
    expect(Object.keys(name.fields!)).toEqual(['variables.IP']);
    expect(await h.forge.domains.byName('example.test')).toBeUndefined();
  });

  it('refuses a variable that brings an NS set to the apex', async () => {
    const t = await h.services.templates.create(me(alice), { name: 'deleg', rrsets: [{ name: '{sub}', record_type: 'NS', records: ['ns.example.net.'] }] });
    await h.services.zones.create(alice.id, { name: 'example.test' }, as(alice));
    const e = await refusal(h.services.templates.apply(me(alice), t.id, { zones: ['example.test'], variables: { sub: '@' } }, as(alice)));
    expect(e).toBeInstanceOf(Invalid);
    expect(Object.values(e.fields!).join()).toMatch(/is the apex here, whose NS set is managed by zonedeck/);
    const ns = (await h.forge.records.byDomain((await h.forge.domains.byName('example.test'))!.id)).filter((r) => r.record_type === 'NS');
    expect(ns.map((r) => r.content).sort()).toEqual(['ns1.zonedeck.test', 'ns2.zonedeck.test']);
  });

  it('is a template only its owner, or its team, may use', async () => {
    const t = await webTemplate();
    const e = await refusal(zoneFrom(bob, 'bobs.test', t, { ip: '192.0.2.1' }));
    expect(e).toBeInstanceOf(Invalid);
    expect(e.fields).toEqual({ template: 'is not a template you may use' });
  });
});

describe('applying a template to zones', () => {
  beforeEach(async () => {
    const base = await h.services.templates.create(me(alice), { name: 'base', rrsets: [{ name: 'old', record_type: 'A', records: ['192.0.2.99'] }] });
    await zoneFrom(alice, 'one.test', base, {});
    await zoneFrom(alice, 'two.test', base, {});
  });

  it('previews without writing, then writes every zone under one batch', async () => {
    const t = await webTemplate();
    const body = { zones: ['one.test', 'two.test'], variables: { ip: '192.0.2.1' } };
    const preview = await h.services.templates.apply(me(alice), t.id, body, { ...as(alice), dryRun: true });
    expect(preview.batch).toBeNull();
    expect(preview.zones.map((z) => [z.zone, z.change.id, z.change.added.length])).toEqual([
      ['one.test', null, 3],
      ['two.test', null, 3],
    ]);
    expect(await records('one.test')).toEqual(['old A 3600 192.0.2.99']);

    const done = await h.services.templates.apply(me(alice), t.id, body, as(alice));
    expect(done.batch).toMatch(/^[0-9a-f-]{36}$/);
    expect(done.zones.every((z) => typeof z.change.id === 'number' && z.change.batch === done.batch)).toBe(true);
    // Merge: the template's RRsets join the zone's.
    expect(await records('two.test')).toEqual(['@ MX 3600 10 mail.two.test', '@ TXT 3600 v=spf1 mx -all', 'old A 3600 192.0.2.99', 'www A 300 192.0.2.1']);
    expect((await h.services.templates.ofZone(me(alice), 'two.test')).template.id).toBe(t.id);
  });

  it("replaces the zone's other RRsets in replace mode, but never the apex NS set", async () => {
    const t = await webTemplate();
    await h.services.templates.apply(me(alice), t.id, { zones: ['one.test'], mode: 'replace', variables: { ip: '192.0.2.1' } }, as(alice));
    expect(await records('one.test')).toEqual(['@ MX 3600 10 mail.one.test', '@ TXT 3600 v=spf1 mx -all', 'www A 300 192.0.2.1']);
    const zone = await h.forge.domains.byName('one.test');
    expect((await h.forge.records.byDomain(zone!.id)).filter((r) => r.record_type === 'NS')).toHaveLength(2);
  });

  it('changes no zone when one of them would fail, and names that zone', async () => {
    const t = await webTemplate();
    const alias = await h.services.templates.create(me(alice), { name: 'alias', rrsets: [{ name: 'www', record_type: 'CNAME', records: ['elsewhere.example.net.'] }] });
    await zoneFrom(alice, 'three.test', alias, {});
    // In merge mode the template's www A would stand beside three.test's www CNAME.
    const e = await refusal(h.services.templates.apply(me(alice), t.id, { zones: ['one.test', 'three.test'], variables: { ip: '192.0.2.1' } }, as(alice)));
    expect(e.message).toMatch(/^three\.test: /);
    expect(await records('one.test')).toEqual(['old A 3600 192.0.2.99']);
    expect(await refusal(h.services.templates.apply(me(alice), t.id, { zones: ['one.test', 'missing.test'], variables: { ip: '192.0.2.1' } }, as(alice)))).toBeInstanceOf(NotFound);
  });

  it('counts what it would build before building: at most MAX_RECORDS_PER_ZONE in all', async () => {
    const big = await h.services.templates.create(me(alice), { name: 'big', rrsets: [{ name: 'txt', record_type: 'TXT', records: Array.from({ length: 12 }, (_, i) => `"${i}"`) }] });
    const e = await refusal(h.services.templates.apply(me(alice), big.id, { zones: ['one.test', 'two.test'] }, as(alice)));
    expect(e.fields!.zones).toMatch(/this apply would build 24 records/);
    expect(await records('one.test')).toEqual(['old A 3600 192.0.2.99']);
  });
});

describe('drift', () => {
  it("shows where a zone's records differ from its template, and lists the template's zones", async () => {
    const t = await webTemplate();
    await zoneFrom(alice, 'one.test', t, { ip: '192.0.2.1' });
    await zoneFrom(alice, 'two.test', t, { ip: '192.0.2.2' });
    await h.services.recordSearch.bulk(me(alice), { zones: ['two.test'], type: 'A', content: '192.0.2.2', match: 'exact', action: 'replace', replacement: '192.0.2.9' }, as(alice));

    const two = await h.services.templates.ofZone(me(alice), 'two.test');
    expect(two.drifted).toBe(true);
    expect(two.differences).toEqual([{ name: 'www', record_type: 'A', expected: ['192.0.2.2'], actual: ['192.0.2.9'] }]);
    const list = await h.services.templates.zones(me(alice), t.id);
    expect(list.map((z) => [z.zone, z.drifted])).toEqual([
      ['one.test', false],
      ['two.test', true],
    ]);
  });
});

describe('scopes and teams', () => {
  it('refuses every change to templates with a scoped credential, and keeps a scoped read to its zones', async () => {
    const t = await webTemplate();
    await zoneFrom(alice, 'one.test', t, { ip: '192.0.2.1' });
    await zoneFrom(alice, 'two.test', t, { ip: '192.0.2.2' });
    const scoped = { userId: alice.id, scope: { zones: ['one.test'] } };
    expect(await refusal(h.services.templates.create(scoped, { name: 'other', rrsets: WEB }))).toBeInstanceOf(Forbidden);
    expect(await refusal(h.services.templates.update(scoped, t.id, { description: 'x' }))).toBeInstanceOf(Forbidden);
    expect(await refusal(h.services.templates.remove(scoped, t.id))).toBeInstanceOf(Forbidden);
    expect(await refusal(h.services.templates.apply(scoped, t.id, { zones: ['two.test'], variables: { ip: '192.0.2.1' } }, as(alice)))).toBeInstanceOf(Forbidden);
    expect((await h.services.templates.zones(scoped, t.id)).map((z) => z.zone)).toEqual(['one.test']);
    expect((await h.services.templates.visible(alice.id, t.id)).description).toBe('');
  });

  it("lets a team's members read its templates, and only its owners and admins change them", async () => {
    await h.services.teams.create(h.actor(alice), 'ops');
    const t = await h.services.templates.create(me(alice), { name: 'web', team: 'ops', rrsets: WEB });
    expect(await refusal(h.services.templates.visible(bob.id, t.id))).toBeInstanceOf(NotFound);
    await h.services.teams.invite(h.actor(alice), 'ops', { username: 'bob', role: 'editor' });
    await h.services.teams.accept(h.actor(bob), 'ops');
    expect((await h.services.templates.visible(bob.id, t.id)).id).toBe(t.id);
    const change = await refusal(h.services.templates.update(me(bob), t.id, { description: 'mine now' }));
    expect(change).toBeInstanceOf(Forbidden);
    const make = await refusal(h.services.templates.create(me(bob), { name: 'bobs', team: 'ops', rrsets: WEB }));
    expect(make.message).toMatch(/only an owner or admin of team ops may create its templates; your role is editor/);
    expect((await h.services.templates.update(me(alice), t.id, { description: 'ours' })).description).toBe('ours');
  });
});
