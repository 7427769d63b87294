/**
 * A body over the limit, sent by Node's own fetch to the running server: the client reads the 413
 * and its error body from each API (v1, the dashboard's backend, PowerDNS), whether the body
 * declares its length or streams it; the server reads and drops the rest of the body after its
 * answer instead of resetting the connection. A body that never ends still ends at a bound.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, startServer, type ServerProcess } from '../testing/server-process';
import { adminSession } from '../testing/admin-session';

const ZONE = 'drain.example';
const BIG = 8 * 1024 * 1024;

let server: ServerProcess;
let token: string;
let session: { cookie: string; csrf: string };
beforeAll(async () => {
  // The default limits (64 KiB; 32 MiB for bulk writes), and a short body time for the endless body.
  server = await startServer({ BODY_TIMEOUT_MS: '1000' });
  token = cli(server.dataDir, 'tokens', 'create', 'admin').at(-1)!;
  const created = await fetch(`${server.url}/api/v1/domains`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: ZONE }),
  });
  expect(created.status).toBe(201);
  session = await adminSession(server);
});
afterAll(() => server?.stop());

/** A record whose content alone is `size` bytes, as JSON text. */
const bigRecord = (size: number) => JSON.stringify({ name: 'big', record_type: 'TXT', content: 'x'.repeat(size) });

/** The same bytes as a stream: fetch sends it chunked, with no length for the server to refuse up front. */
function streamed(text: string): ReadableStream<Uint8Array> {
  const bytes = Buffer.from(text);
  let at = 0;
  return new ReadableStream({
    pull(ctrl) {
      if (at >= bytes.length) return ctrl.close();
      ctrl.enqueue(bytes.subarray(at, (at += 256 * 1024)));
    },
  });
}

/** Sends the body both ways (its length declared, then streamed), a few times each: a reset came about every other time. */
async function eachWay(send: (body: BodyInit) => Promise<Response>): Promise<Array<{ status: number; body: unknown }>> {
  const text = bigRecord(BIG);
  const answers = [];
  for (let i = 0; i < 4; i++) {
    const res = await send(i % 2 === 0 ? text : streamed(text));
    answers.push({ status: res.status, body: await res.json() });
  }
  return answers;
}

describe('a body over the limit, sent by fetch', () => {
  it('gets its 413 from the v1 API', async () => {
    const answers = await eachWay((body) =>
      fetch(`${server.url}/api/v1/domains/${ZONE}/records`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body, duplex: 'half' } as RequestInit),
    );
    for (const a of answers) expect(a).toEqual({ status: 413, body: { error: { status: 413, code: 'payload_too_large', message: 'request body is larger than 65536 bytes' } } });
  });

  it("gets its 413 through the dashboard's backend, for a forwarded call and its own sign-in", async () => {
    const headers = { cookie: session.cookie, origin: server.url, 'sec-fetch-site': 'same-origin', 'x-csrf-token': session.csrf, 'content-type': 'application/json' };
    const forwarded = await eachWay((body) => fetch(`${server.url}/bff/api/domains/${ZONE}/records`, { method: 'POST', headers, body, duplex: 'half' } as RequestInit));
    for (const a of forwarded) expect(a).toEqual({ status: 413, body: { error: { status: 413, code: 'payload_too_large', message: 'request body is larger than 65536 bytes' } } });
    const signIn = await eachWay((body) =>
      fetch(`${server.url}/bff/sign-in`, { method: 'POST', headers: { origin: server.url, 'content-type': 'application/json' }, body, duplex: 'half' } as RequestInit),
    );
    for (const a of signIn) expect(a).toEqual({ status: 413, body: { error: { status: 413, code: 'payload_too_large', message: 'request body is too large' } } });
  });

  it('gets its 413 from the PowerDNS API', async () => {
    const answers = await eachWay((body) =>
      fetch(`${server.url}/api/v1/servers/localhost/zones/${ZONE}.`, { method: 'PUT', headers: { 'x-api-key': token, 'content-type': 'application/json' }, body, duplex: 'half' } as RequestInit),
    );
    for (const a of answers) expect(a).toEqual({ status: 413, body: { error: 'request body is larger than 65536 bytes' } });
  });

  it('and the connection, its body drained, serves the next request', async () => {
    // One connection (a raw socket): the refused body is sent whole, then a second request on the same socket.
    const { port } = new URL(server.url);
    const body = bigRecord(200_000);
    const head = (length: number) =>
      `POST /api/v1/domains/${ZONE}/records HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;
    const small = JSON.stringify({ name: 'small', record_type: 'TXT', content: 'fits' });
    const socket = net.connect(Number(port), '127.0.0.1');
    let data = '';
    socket.on('data', (d) => (data += d.toString()));
    await new Promise((r) => socket.once('connect', r));
    socket.write(head(Buffer.byteLength(body)) + body);
    socket.write(head(Buffer.byteLength(small)) + small);
    await new Promise<void>((resolve, reject) => {
      socket.on('data', () => data.includes('"name":"small"') && resolve());
      socket.on('close', () => reject(new Error(`closed after: ${data}`)));
    });
    socket.destroy();
    expect(data).toMatch(/^HTTP\/1\.1 413 [^]*HTTP\/1\.1 200 [^]*"content":"fits"/);
  });
});

describe('a body that never ends', () => {
  it('gets its 413, and the server closes the connection in the end', async () => {
    const { port } = new URL(server.url);
    const socket = net.connect(Number(port), '127.0.0.1');
    let data = '';
    socket.on('data', (d) => (data += d.toString()));
    socket.on('error', () => {});
    await new Promise((r) => socket.once('connect', r));
    socket.write(`POST /api/v1/domains/${ZONE}/records HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`);
    const chunk = `${(16 * 1024).toString(16)}\r\n${' '.repeat(16 * 1024)}\r\n`;
    // A chunk every 20 ms for as long as the connection is open.
    const writer = setInterval(() => {
      if (!socket.destroyed) socket.write(chunk);
    }, 20);
    await new Promise((resolve) => socket.once('close', resolve));
    clearInterval(writer);
    expect(data).toMatch(/^HTTP\/1\.1 413 /);
    expect(data).toContain('"code":"payload_too_large"');
  });
});

describe('a client that goes away mid-body', () => {
  it('is no server error: nothing is logged as one', async () => {
    const { port } = new URL(server.url);
    const socket = net.connect(Number(port), '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    socket.write(`POST /api/v1/domains/${ZONE}/records HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"name": "gone`);
    // Long enough for the route to be reading the body when the connection ends.
    await new Promise((r) => setTimeout(r, 200));
    socket.destroy();
    const logged = () => server.lines.map((l) => JSON.parse(l) as { msg?: string; path?: string; status?: number });
    await expect.poll(() => logged().some((l) => l.msg === 'request' && l.path === `/api/v1/domains/${ZONE}/records` && l.status === 400)).toBe(true);
    expect(logged().filter((l) => l.msg === 'unhandled error')).toEqual([]);
  });
});
