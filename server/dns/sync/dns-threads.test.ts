/**
 * DNS_THREADS against the built server: asked for two threads, the server says at start, as a
 * warning naming both numbers and its Node, that one answers and why, and it answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startServer, type RunningServer } from '../../testing/test-server';

let s: RunningServer;

beforeAll(async () => {
  s = await startServer({ DNS_THREADS: '2' });
}, 30_000);
afterAll(() => s?.stop());

describe('DNS_THREADS', () => {
  it("asked for two: one thread answers (the zone index is one thread's), and the start says so", async () => {
    const line = () => s.logs.find((l) => typeof l.msg === 'string' && l.msg.startsWith('one DNS thread answers'));
    expect(await eventually(async () => line() !== undefined)).toBe(true);
    const said = line();
    expect(said).toMatchObject({ level: 40, dns_threads: 1, asked: 2, node: process.version });
    expect(said!.msg).toBe("one DNS thread answers: the zone index is this thread's, and a thread per core would copy it");
    expect((await s.api('POST', '/domains', { name: 'threads.test' })).status).toBe(201);
    // The SOA in dig's short form: primary, mailbox, then the serial and four timers.
    expect(await eventually(async () => /^\S+\. \S+\. \d+ \d+ \d+ \d+ \d+$/m.test(await s.dig('threads.test', 'SOA', '+short')))).toBe(true);
  });
});
