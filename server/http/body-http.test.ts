/**
 * Request bodies over a real socket: there the API reads Node's request stream itself (not the
 * web stream of in-process calls), with the same limits and answers as body.test.ts checks.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, startServer, type ServerProcess } from '../testing/server-process';

let server: ServerProcess;
let token: string;
beforeAll(async () => {
  server = await startServer({ BODY_LIMIT_BYTES: '2048', BODY_TIMEOUT_MS: '300' });
  cli(server.dataDir, 'users', 'add', 'alice');
  token = cli(server.dataDir, 'tokens', 'create', 'alice').at(-1)!;
});
afterAll(() => server?.stop());

/** Sends a request head and then each chunk `gapMs` apart; resolves with the status line and the body of the answer. */
function send(head: string, chunks: string[], gapMs = 0): Promise<{ status: number; body: string }> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    let data = '';
    const socket = net.connect(Number(port), '127.0.0.1', async () => {
      socket.write(head);
      for (const chunk of chunks) {
        if (gapMs) await new Promise((r) => setTimeout(r, gapMs));
        if (!socket.destroyed) socket.write(chunk);
      }
    });
    socket.on('data', (d) => {
      data += d.toString();
      const end = data.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length: (\d+)/i.exec(data);
      if (end >= 0 && length && data.length >= end + 4 + Number(length[1])) {
        socket.destroy();
        resolve({ status: Number(data.slice(9, 12)), body: data.slice(end + 4) });
      }
    });
    socket.on('error', reject);
    socket.on('close', () => reject(new Error(`connection closed before a whole answer: ${JSON.stringify(data)}`)));
  });
}

const post = (path: string, headers: string) => `POST /api/v1${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\n${headers}\r\n`;
const chunked = (text: string) => `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`;

describe('request bodies over HTTP', () => {
  it('reads a chunked JSON body', async () => {
    const res = await send(post('/domains', 'Transfer-Encoding: chunked\r\n'), [chunked('{"name": "chunked'), chunked('.example"}'), '0\r\n\r\n'], 20);
    expect(res.status).toBe(201);
    expect(JSON.parse(res.body)).toMatchObject({ name: 'chunked.example' });
  });

  it('answers 413 for a chunked body that grows past the limit', async () => {
    const res = await send(post('/domains/chunked.example/records', 'Transfer-Encoding: chunked\r\n'), [chunked(' '.repeat(1500)), chunked(' '.repeat(1500)), '0\r\n\r\n'], 20);
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toEqual({ error: { status: 413, code: 'payload_too_large', message: 'request body is larger than 2048 bytes' } });
  });

  it('answers 408 when the body does not arrive in time', async () => {
    const res = await send(post('/domains', 'Content-Length: 100\r\n'), ['{"name": "slow.exam']);
    expect(res.status).toBe(408);
    expect(JSON.parse(res.body)).toEqual({ error: { status: 408, code: 'request_timeout', message: 'request body not received within 300 ms' } });
  });

  it('answers a zone import sent as JSON with 415 naming the zone file types (it was a 500: the body was read twice)', async () => {
    const res = await send(post('/domains/chunked.example/zone', 'Content-Length: 2\r\n'), ['{}']);
    expect(res.status).toBe(415);
    expect(JSON.parse(res.body)).toEqual({ error: { status: 415, code: 'unsupported_media_type', message: 'send the request body as text/dns or text/plain, with that Content-Type header' } });
  });

  it('answers 400 for a body that is not JSON', async () => {
    const res = await send(post('/domains', 'Content-Length: 8\r\n'), ['{"name":']);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toEqual({ error: { status: 400, code: 'invalid_json', message: 'request body is not valid JSON (UTF-8)' } });
  });
});
