/**
 * Crash safety: writes in flight, the server killed with SIGKILL, restarted on the same
 * data; every write that was answered 2xx is there, and none is half-applied.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { cli, startServer, tempDataDir, type ServerProcess } from './testing/server-process';

let server: ServerProcess | undefined;
afterAll(() => server?.stop('SIGKILL'));

describe('crash safety', () => {
  it('keeps every acknowledged write across kill -9, with serials consistent', async () => {
    const dataDir = tempDataDir();
    server = await startServer({}, dataDir);
    cli(dataDir, 'users', 'add', 'alice');
    const token = cli(dataDir, 'tokens', 'create', 'alice').at(-1)!;
    const api = (url: string, init: RequestInit = {}) => fetch(`${server!.url}/api/v1${url}`, { ...init, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } });
    const created = await api('/domains', { method: 'POST', body: JSON.stringify({ name: 'crash.example' }) });
    expect(created.status).toBe(201);
    const initialSerial = (await created.json()).serial_number as number;

    const acknowledged: string[] = [];
    let stop = false;
    const writer = async (w: number) => {
      for (let i = 0; !stop; i++) {
        const content = `10.${w}.${Math.floor(i / 250)}.${(i % 250) + 1}`;
        try {
          const res = await api('/domains/crash.example/records', { method: 'POST', body: JSON.stringify({ name: `w${w}`, record_type: 'A', content }) });
          if (res.status === 200) acknowledged.push(`w${w} ${content}`);
        } catch {
          return; // the connection died with the server
        }
      }
    };
    const writers = [0, 1, 2, 3].map(writer);
    await new Promise((r) => setTimeout(r, 1500));
    await server.stop('SIGKILL');
    stop = true;
    await Promise.all(writers);
    expect(acknowledged.length).toBeGreaterThan(10);

    server = await startServer({}, dataDir);
    const all: { name: string; content: string }[] = [];
    for (let page = 1; ; page++) {
      const rows = (await (await api(`/domains/crash.example/records?record_type=A&per_page=500&page=${page}`)).json()) as { name: string; content: string }[];
      all.push(...rows);
      if (rows.length < 500) break;
    }
    const stored = new Set(all.map((r) => `${r.name} ${r.content}`));
    for (const w of acknowledged) expect(stored.has(w), w).toBe(true);
    // At most one write per writer was stored without its answer reaching the client.
    expect(stored.size - acknowledged.length).toBeLessThanOrEqual(4);
    // Every stored record bumped the serial exactly once: nothing half-applied.
    const zone = await (await api('/domains/crash.example')).json();
    expect(zone.serial_number).toBe(initialSerial + stored.size);
  });
});
