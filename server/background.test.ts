/**
 * Background jobs that fail are not silent: each failure is logged with
 * the job and the zone, counted in /metrics, and retried with backoff; /readyz says "degraded"
 * while a signed zone's signatures at the secondaries are within 3 days of expiring.
 */
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FIRST_RETRY_MS, startJob, ZoneJobError } from './background';
import { countBackgroundFailure, dnsThreadBackgroundFailures } from './counters';
import { registry } from './metrics';
import { createTestApp, type TestApp } from './testing/test-app';

const failures = async (job: string) => (await registry.getSingleMetric('zonedeck_background_failures_total')!.get()).values.find((v) => v.labels.job === job)?.value ?? 0;

function capturingLog() {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { log: pino({ level: 'info' }, sink), lines };
}

describe('a failing background job', () => {
  afterEach(() => vi.useRealTimers());

  it('counts in /metrics the failures of this thread and those the DNS thread reported (its delegation check)', async () => {
    countBackgroundFailure('test-both-threads');
    // The DNS thread's report each second replaces the last one: its counts so far.
    dnsThreadBackgroundFailures.set('test-both-threads', 3);
    try {
      expect(await failures('test-both-threads')).toBe(4);
      expect(await registry.metrics()).toMatch(/^zonedeck_background_failures_total\{job="test-both-threads"\} 4$/m);
    } finally {
      dnsThreadBackgroundFailures.delete('test-both-threads');
    }
  });

  it('logs each zone that failed, counts it, retries after 30 s, 1 min, 2 min …, and is back on its period once it passes', async () => {
    vi.useFakeTimers();
    const { log, lines } = capturingLog();
    const before = await failures('test-resign');
    let runs = 0;
    let healthy = false;
    const job = startJob(
      'test-resign',
      async () => {
        runs++;
        if (!healthy) throw new AggregateError([new ZoneJobError('broken.example', new Error('disk I/O error')), new ZoneJobError('other.example', new Error('disk I/O error'))]);
      },
      log,
      { everyMs: 3_600_000 },
    );
    await vi.advanceTimersByTimeAsync(0);
    expect(runs).toBe(1);
    expect(await failures('test-resign')).toBe(before + 2);
    const logged = lines.filter((l) => l.job === 'test-resign');
    expect(logged.map((l) => [l.zone, l.level, l.retry_in_s])).toEqual([
      ['broken.example', 50, FIRST_RETRY_MS / 1000],
      ['other.example', 50, FIRST_RETRY_MS / 1000],
    ]);
    // Retries: 30 s, then 60 s, then 120 s after each failure — not an hour later.
    await vi.advanceTimersByTimeAsync(FIRST_RETRY_MS);
    expect(runs).toBe(2);
    await vi.advanceTimersByTimeAsync(FIRST_RETRY_MS);
    expect(runs).toBe(2);
    await vi.advanceTimersByTimeAsync(FIRST_RETRY_MS);
    expect(runs).toBe(3);
    healthy = true;
    await vi.advanceTimersByTimeAsync(4 * FIRST_RETRY_MS);
    expect(runs).toBe(4);
    // Healthy again: the next run is a period later.
    await vi.advanceTimersByTimeAsync(3_600_000 - 1000);
    expect(runs).toBe(4);
    await vi.advanceTimersByTimeAsync(1000);
    expect(runs).toBe(5);
    job.stop();
  });
});

describe('/readyz and expiring signatures', () => {
  let t: TestApp;
  afterEach(() => t?.close());
  const DAY = 86_400_000;

  async function signedZone(name: string, ageDays: number) {
    await t.request('POST', '/api/v1/domains', { body: { name, dnssec_enabled: true } });
    const row = (await t.services.store.domains.byName(name))!;
    await t.forge.domains.update(row, { updated_at: new Date(Date.now() - ageDays * DAY).toISOString() });
  }

  it('is "degraded" (still 200) naming a signed zone whose serial is 11 days old; ready while zones are fresh', async () => {
    t = await createTestApp();
    await t.user('alice');
    await signedZone('fresh.example', 6);
    const ok = await t.request('GET', '/readyz');
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ status: 'ready' });
    await t.close();

    t = await createTestApp();
    await t.user('alice');
    await signedZone('fresh.example', 6);
    await signedZone('stale.example', 11);
    const res = await t.request('GET', '/readyz');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { status: string; reason: string; expiring_signatures: Array<{ zone: string; signatures_expire_at: string }> };
    expect(body.status).toBe('degraded');
    expect(body.reason).toMatch(/re-signing has been failing/);
    expect(body.expiring_signatures.map((z) => z.zone)).toEqual(['stale.example']);
    // 13 days after its last serial: 2 days from now.
    const left = Date.parse(body.expiring_signatures[0]!.signatures_expire_at) - Date.now();
    expect(Math.round(left / DAY)).toBe(2);
    const metrics = await (await t.request('GET', '/metrics')).text();
    expect(metrics).toMatch(/^zonedeck_dnssec_signatures_expiring_zones 1$/m);
  });
});
