/**
 * lexicon (Debian's `lexicon`, python3-lexicon) with its `powerdns` provider, pointed at
 * zonedeck as at a PowerDNS server (`--pdns-server`, `--auth-token` = a zonedeck token):
 * creates, lists, updates and deletes records. Each change is checked with dig against the
 * DNS port and in the zone's history, where it shows as a change set with source `pdns`.
 *
 * The zone is example.org, not example.test: lexicon finds the zone of a name with the
 * public suffix list, on which `.test` is no suffix (it would ask for the zone "test.").
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, startServer, type ServerProcess } from '../testing/server-process';
import { need } from './fixtures/need';

const run = promisify(execFile);

let server: ServerProcess | undefined;
let token = '';

interface Change {
  source: string;
  actor: { username: string; credential: string };
  added: Array<{ name: string; record_type: string; content: string }>;
  removed: Array<{ name: string; record_type: string; content: string }>;
}

async function lexicon(...args: string[]): Promise<string> {
  const [action, ...rest] = args;
  const argv = ['powerdns', '--auth-token', token, '--pdns-server', server!.url, action!, 'example.org', ...rest, '--output', 'JSON'];
  const { stdout } = await run('lexicon', argv, { env: { ...process.env, TLDEXTRACT_CACHE_TIMEOUT: '5' }, timeout: 60_000 }).catch((e: { message: string; stdout?: string; stderr?: string }) => {
    throw new Error(`lexicon ${argv.join(' ')}: ${e.message}\n${e.stdout ?? ''}${e.stderr ?? ''}`);
  });
  return stdout;
}

const dig = async (name: string, type: string) =>
  (await run('dig', ['@127.0.0.1', '-p', String(server!.dnsPort), '+time=2', '+tries=2', '+norecurse', '+short', name, type])).stdout.trim().split('\n').filter(Boolean).sort();

/** The zone's change sets since `count` of them were seen, oldest first. */
async function changesSince(count: number): Promise<Change[]> {
  const res = await fetch(`${server!.url}/api/v1/domains/example.org/changes?per_page=500`, { headers: { authorization: `Bearer ${token}` } });
  const all = (await res.json()) as Change[];
  return all.slice(0, all.length - count).reverse();
}

const records = (side: Change['added']) => side.map((r) => `${r.name} ${r.record_type} ${r.content}`);

beforeAll(async () => {
  for (const [name, pkg] of [
    ['lexicon', 'lexicon'],
    ['dig', 'bind9-dnsutils'],
  ] as const)
    need(name, pkg);
  server = await startServer({ DNS_PORT: '0' });
  cli(server.dataDir, 'users', 'add', 'lex');
  token = cli(server.dataDir, 'tokens', 'create', 'lex').at(-1)!;
  const created = await fetch(`${server.url}/api/v1/domains`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'example.org' }),
  });
  expect(created.status).toBe(201);
});

afterAll(async () => {
  await server?.stop();
});

describe('lexicon powerdns', () => {
  it('creates, lists, updates and deletes records; each change answers in DNS and is one pdns change set', async () => {
    let seen = (await changesSince(0)).length;
    const next = async () => {
      const fresh = await changesSince(seen);
      seen += fresh.length;
      return fresh;
    };

    // create: a TXT, an A and a CNAME (lexicon sends TXT quoted and the CNAME target with its dot).
    await lexicon('create', 'TXT', '--name', 'foo', '--content', 'bar');
    expect(await dig('foo.example.org', 'TXT')).toEqual(['"bar"']);
    let fresh = await next();
    expect(fresh).toHaveLength(1);
    expect(fresh[0]!.source).toBe('pdns');
    expect(fresh[0]!.actor).toEqual({ username: 'lex', credential: expect.stringMatching(/^token:[0-9]+$/) });
    expect(records(fresh[0]!.added)).toEqual(['foo TXT bar']);

    await lexicon('create', 'A', '--name', 'www', '--content', '192.0.2.7');
    await lexicon('create', 'CNAME', '--name', 'alias', '--content', 'www.example.org');
    expect(await dig('www.example.org', 'A')).toEqual(['192.0.2.7']);
    expect(await dig('alias.example.org', 'CNAME')).toEqual(['www.example.org.']);
    fresh = await next();
    expect(fresh.map((c) => records(c.added))).toEqual([['www A 192.0.2.7'], ['alias CNAME www.example.org']]);

    // A second TXT beside the first: lexicon sends the RRset with both.
    await lexicon('create', 'TXT', '--name', 'foo', '--content', 'second');
    expect(await dig('foo.example.org', 'TXT')).toEqual(['"bar"', '"second"']);
    expect((await next()).map((c) => records(c.added))).toEqual([['foo TXT second']]);

    // list: what lexicon reads back from the zone's rrsets.
    const listed = JSON.parse(await lexicon('list', 'TXT')) as Array<{ name: string; content: string; id: string }>;
    expect(listed.map((r) => `${r.name} ${r.content}`).sort()).toEqual(['foo.example.org bar', 'foo.example.org second']);

    // update: lexicon deletes the record by its id, then creates the new one.
    await lexicon('update', 'TXT', '--name', 'foo', '--content', 'baz', '--identifier', listed.find((r) => r.content === 'bar')!.id);
    expect(await dig('foo.example.org', 'TXT')).toEqual(['"baz"', '"second"']);
    fresh = await next();
    expect(fresh.flatMap((c) => records(c.removed))).toEqual(['foo TXT bar']);
    expect(fresh.flatMap((c) => records(c.added))).toEqual(['foo TXT baz']);
    expect(fresh.every((c) => c.source === 'pdns')).toBe(true);

    // delete one record, then the rest of the RRset and the A record.
    await lexicon('delete', 'TXT', '--name', 'foo', '--content', 'baz');
    expect(await dig('foo.example.org', 'TXT')).toEqual(['"second"']);
    expect((await next()).map((c) => records(c.removed))).toEqual([['foo TXT baz']]);
    await lexicon('delete', 'TXT', '--name', 'foo');
    await lexicon('delete', 'A', '--name', 'www');
    expect(await dig('foo.example.org', 'TXT')).toEqual([]);
    expect(await dig('www.example.org', 'A')).toEqual([]);
    expect((await next()).map((c) => records(c.removed))).toEqual([['foo TXT second'], ['www A 192.0.2.7']]);

    expect(JSON.parse(await lexicon('list', 'TXT'))).toEqual([]);
    expect(JSON.parse(await lexicon('list', 'A'))).toEqual([]);
    expect((JSON.parse(await lexicon('list', 'CNAME')) as Array<{ name: string }>).map((r) => r.name)).toEqual(['alias.example.org']);
  }, 120_000);
});
