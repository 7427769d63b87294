/**
 * The two things a webhook delivery does that a plain HTTP client would not: it connects to the
 * address it judged (the name is never resolved a second time, so an answer that changes between
 * the check and the connection cannot lead inside), and over HTTPS it checks the certificate for
 * the URL's name although it connects to an address. The resolver is stood in for where a test needs
 * a name to resolve to something chosen; the servers and TLS are real, on loopback.
 */
import { execFileSync } from 'node:child_process';
import dns from 'node:dns';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { deliver } from './deliver';

const allow = { allowPrivate: true };
const servers: net.Server[] = [];
const got: { host?: string; servername?: string | false | null; from?: string }[] = [];
const defaultCAs = tls.getCACertificates('default');
let plain: number;
let trusted: number;
let selfSigned: number;

function handler(req: http.IncomingMessage, res: http.ServerResponse): void {
  const socket = req.socket as tls.TLSSocket;
  got.push({ host: req.headers.host, servername: socket.servername, from: socket.remoteAddress });
  req.resume();
  req.on('end', () => res.writeHead(204).end());
}

const listen = (s: net.Server): Promise<number> =>
  new Promise((resolve) => {
    servers.push(s);
    s.listen(0, '127.0.0.1', () => resolve((s.address() as net.AddressInfo).port));
  });

/** A certificate for `localhost` from a CA made here, and a self-signed one for the same name. */
function certificates(dir: string) {
  const ssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  ssl('req', '-x509', ...ec, '-days', '1', '-subj', '/CN=zonedeck test CA', '-keyout', 'ca.key', '-out', 'ca.pem');
  ssl('req', ...ec, '-subj', '/CN=localhost', '-keyout', 'leaf.key', '-out', 'leaf.csr');
  fs.writeFileSync(path.join(dir, 'san.ext'), 'subjectAltName=DNS:localhost\n');
  ssl('x509', '-req', '-in', 'leaf.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-days', '1', '-extfile', 'san.ext', '-out', 'leaf.pem');
  ssl('req', '-x509', ...ec, '-days', '1', '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost', '-keyout', 'self.key', '-out', 'self.pem');
  const read = (f: string) => fs.readFileSync(path.join(dir, f));
  return { ca: read('ca.pem').toString(), leaf: { key: read('leaf.key'), cert: read('leaf.pem') }, self: { key: read('self.key'), cert: read('self.pem') } };
}

beforeAll(async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zonedeck-deliver-'));
  const c = certificates(dir);
  fs.rmSync(dir, { recursive: true, force: true });
  // This test file's process trusts the CA, as a machine trusts a public one.
  tls.setDefaultCACertificates([...defaultCAs, c.ca]);
  plain = await listen(http.createServer(handler));
  trusted = await listen(https.createServer(c.leaf, handler));
  selfSigned = await listen(https.createServer(c.self, handler));
});
afterEach(() => {
  vi.restoreAllMocks();
});
afterAll(() => {
  tls.setDefaultCACertificates(defaultCAs);
  for (const s of servers) s.close();
});

const post = (url: string, timeoutMs = 2000) => ({ url, body: '{}', headers: {}, timeoutMs });
/**
 * The resolver (both of Node's: the promise one deliver asks and the callback one a connection by
 * name would ask) gives the next of these answers each time it is asked, the last one from then on.
 */
function resolveTo(...answers: string[][]) {
  let asked = 0;
  const next = () => (answers[Math.min(asked++, answers.length - 1)] ?? []).map((address) => ({ address, family: net.isIP(address) }));
  vi.spyOn(dns.promises, 'lookup').mockImplementation((async () => next()) as unknown as typeof dns.promises.lookup);
  vi.spyOn(dns, 'lookup').mockImplementation(((_host: string, options: unknown, callback?: (...a: unknown[]) => void) => {
    const done = (callback ?? options) as (...a: unknown[]) => void;
    const all = next();
    process.nextTick(() => ((options as dns.LookupOptions | undefined)?.all ? done(null, all) : done(null, all[0]!.address, all[0]!.family)));
  }) as unknown as typeof dns.lookup);
  return () => asked;
}

describe('a webhook delivery over HTTPS', () => {
  it('checks the certificate for the URL’s name and sends that name, though it connects to the address', async () => {
    expect(await deliver(post(`https://localhost:${trusted}/hook`), allow)).toMatchObject({ status: 204, error: null });
    expect(got.at(-1)).toEqual({ host: `localhost:${trusted}`, servername: 'localhost', from: '127.0.0.1' });
  });

  it('refuses a certificate that is not for the URL’s host, and one nobody vouches for', async () => {
    const before = got.length;
    const byAddress = await deliver(post(`https://127.0.0.1:${trusted}/hook`), allow);
    expect(byAddress.status).toBeNull();
    expect(byAddress.error).toMatch(/^TLS: .*127\.0\.0\.1/);
    const untrusted = await deliver(post(`https://localhost:${selfSigned}/hook`), allow);
    expect(untrusted.status).toBeNull();
    expect(untrusted.error).toMatch(/^TLS: .*self-signed/);
    expect(got.length).toBe(before);
  });
});

describe('the address a delivery connects to', () => {
  it('is the one judged: the name is resolved once, not again when connecting', async () => {
    const asked = resolveTo(['127.0.0.1'], ['192.0.2.7']);
    expect(await deliver(post(`http://hooks.example.test:${plain}/`), allow)).toMatchObject({ status: 204 });
    expect(asked()).toBe(1);
    expect(got.at(-1)).toMatchObject({ host: `hooks.example.test:${plain}`, from: '127.0.0.1' });
  });

  it('is refused when any address of the name is an inside one, whichever comes first', async () => {
    const before = got.length;
    resolveTo(['192.0.2.7', '127.0.0.1']);
    const mixed = await deliver(post(`http://hooks.example.test:${plain}/`), { allowPrivate: false });
    expect(mixed).toMatchObject({ status: null, error: expect.stringContaining('resolves to 127.0.0.1') });
    resolveTo(['2001:db8::7', '::ffff:10.0.0.1']);
    expect((await deliver(post(`http://hooks.example.test:${plain}/`), { allowPrivate: false })).error).toContain('resolves to ::ffff:10.0.0.1');
    expect(got.length).toBe(before);
  });

  it('is not changed by a second answer that points inside (DNS rebinding)', async () => {
    const before = got.length;
    // Judged public the first time; a client that resolved again would now reach the loopback server.
    const asked = resolveTo(['192.0.2.7'], ['127.0.0.1']);
    const r = await deliver(post(`http://hooks.example.test:${plain}/`, 500), { allowPrivate: false });
    expect(r.status).toBeNull();
    expect(asked()).toBe(1);
    expect(got.length).toBe(before);
  });
});
