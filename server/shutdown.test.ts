/** SIGTERM: stop accepting, finish the request in flight, close the store, exit 0. */
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { cli, startServer } from './testing/server-process';

describe('graceful shutdown', () => {
  it('finishes a request that is in flight when SIGTERM arrives, then exits 0', async () => {
    const server = await startServer();
    cli(server.dataDir, 'users', 'add', 'alice');
    const token = cli(server.dataDir, 'tokens', 'create', 'alice').at(-1)!;
    const { port } = new URL(server.url);
    const body = JSON.stringify({ name: 'inflight.example' });
    const socket = net.connect(Number(port), '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    let reply = '';
    socket.on('data', (d) => (reply += d.toString()));
    socket.write(`POST /api/v1/domains HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`);
    await new Promise((r) => setTimeout(r, 300));

    const exited = new Promise<number | null>((r) => server.child.once('exit', (code) => r(code)));
    server.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    const refused = await new Promise<boolean>((r) => {
      const s = net.connect(Number(port), '127.0.0.1');
      s.once('connect', () => {
        s.destroy();
        r(false);
      });
      s.once('error', () => r(true));
    });
    expect(refused).toBe(true);

    socket.write(body.slice(5));
    expect(await exited).toBe(0);
    expect(reply).toMatch(/^HTTP\/1\.1 201/);
    expect(reply).toContain('"name":"inflight.example"');

    const again = await startServer({}, server.dataDir);
    const zone = await fetch(`${again.url}/api/v1/domains/inflight.example`, { headers: { authorization: `Bearer ${token}` } });
    expect(zone.status).toBe(200);
    await again.stop();
  });
});
