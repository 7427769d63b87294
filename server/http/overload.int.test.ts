/**
 * The real server with room for 4 requests at once and 8 waiting, under a couple of hundred clients
 * that each send API record writes and PowerDNS API reads back to back: what is over the bound is
 * answered 503 `overloaded` with Retry-After, nothing 500, every request answered; meanwhile
 * /healthz answers and so does DNS (`dig`). A write shed did nothing (the zone holds exactly the
 * writes answered 200), /metrics counts each refusal, and once the load stops everything answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../testing/test-server';

const ZONE = 'load.example';
const CLIENTS = 200;

let s: RunningServer;
beforeAll(async () => {
  s = await startServer({ HTTP_MAX_INFLIGHT: '4', HTTP_MAX_QUEUE: '8', HTTP_SHED_LOOP_DELAY_MS: '200', LOG_LEVEL: 'warn' });
  expect((await s.api('POST', '/domains', { name: ZONE })).status).toBe(201);
  expect((await s.api('POST', `/domains/${ZONE}/records`, { name: 'www', record_type: 'A', content: '192.0.2.1' })).status).toBe(200);
});
afterAll(() => s?.stop());

type Answer = { status: number; code?: string; retryAfter: string | null };

async function answerOf(res: Response): Promise<Answer> {
  const body = (await res.json().catch(() => ({}))) as { error?: { code: string } };
  return { status: res.status, code: body.error?.code, retryAfter: res.headers.get('retry-after') };
}

/** Every record of the zone as `name content`, page by page. */
async function storedRecords(): Promise<Set<string>> {
  const out = new Set<string>();
  for (let page = 1; ; page++) {
    const res = await s.api('GET', `/domains/${ZONE}/records?record_type=A&per_page=500&page=${page}`);
    expect(res.status).toBe(200);
    const rows = (await res.json()) as Array<{ name: string; content: string }>;
    for (const r of rows) out.add(`${r.name} ${r.content}`);
    if (rows.length < 500) return out;
  }
}

/** Sums a counter of /metrics over its series whose labels match `labels`. */
function metric(text: string, name: string, labels = ''): number {
  return text
    .split('\n')
    .filter((l) => l.startsWith(`${name}{`) && l.includes(labels))
    .reduce((sum, l) => sum + Number(l.split(' ').at(-1)), 0);
}

describe('more API load than the node serves', () => {
  it('sheds what is over the bound with 503 overloaded, keeps /healthz and DNS answering, and stores only what it acknowledged', async () => {
    const metricsBefore = await (await fetch(`${s.http}/metrics`)).text();
    const answers: Answer[] = [];
    const acknowledged = new Set<string>();
    const failures: unknown[] = [];
    let loadOn = true;

    // Half the clients write records (each a name of its own), half read the zone through the PowerDNS API.
    const client = async (n: number) => {
      for (let i = 0; loadOn; i++) {
        try {
          if (n % 2 === 0) {
            const content = `10.${n % 250}.${Math.floor(i / 250) % 250}.${(i % 250) + 1}`;
            const res = await s.api('POST', `/domains/${ZONE}/records`, { name: `c${n}`, record_type: 'A', content });
            if (res.status === 200) acknowledged.add(`c${n} ${content}`);
            answers.push(await answerOf(res));
          } else {
            answers.push(await answerOf(await s.pdns('GET', `/zones/${ZONE}.`)));
          }
        } catch (e) {
          failures.push(e);
          return;
        }
      }
    };
    const clients = Array.from({ length: CLIENTS }, (_, n) => client(n));

    // While the load runs (it stops only once these are done): the health check and DNS, a few times.
    const health: number[] = [];
    const dns: string[] = [];
    try {
      for (let round = 0; round < 5; round++) {
        health.push((await fetch(`${s.http}/healthz`)).status);
        dns.push((await s.dig('+short', `www.${ZONE}`, 'A')).trim());
        await new Promise((r) => setTimeout(r, 100));
      }
    } finally {
      loadOn = false;
      await Promise.all(clients);
    }

    expect(failures).toEqual([]);
    expect(health).toEqual([200, 200, 200, 200, 200]);
    expect(dns).toEqual(Array(5).fill('192.0.2.1'));
    const shed = answers.filter((a) => a.status === 503);
    expect(shed.length).toBeGreaterThan(0);
    expect(answers.filter((a) => a.status === 200).length).toBeGreaterThan(0);
    // Only two answers: served, or shed saying why and when to come back.
    expect(answers.filter((a) => a.status !== 200 && a.status !== 503)).toEqual([]);
    for (const a of shed) expect(a).toEqual({ status: 503, code: 'overloaded', retryAfter: '2' });

    // A write shed did nothing: the zone holds the record written first and exactly the writes answered 200.
    expect(await storedRecords()).toEqual(new Set(['www 192.0.2.1', ...acknowledged]));

    // /metrics counted each refusal under its reason, and nothing is in flight now.
    const metricsAfter = await (await fetch(`${s.http}/metrics`)).text();
    expect(metric(metricsAfter, 'zonedeck_http_shed_total') - metric(metricsBefore, 'zonedeck_http_shed_total')).toBe(shed.length);
    expect(metric(metricsAfter, 'zonedeck_http_shed_total', 'reason="queue_full"')).toBeGreaterThan(0);
    expect(metricsAfter).toMatch(/^zonedeck_http_inflight_requests 0$/m);
    expect(metricsAfter).toMatch(/^zonedeck_http_queued_requests 0$/m);

    // Afterwards everything answers as before.
    const after = await s.api('POST', `/domains/${ZONE}/records`, { name: 'after', record_type: 'A', content: '192.0.2.2' });
    expect(after.status).toBe(200);
    expect((await s.pdns('GET', `/zones/${ZONE}.`)).status).toBe(200);
  }, 120_000);
});
