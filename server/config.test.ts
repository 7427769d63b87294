import { describe, expect, it } from 'vitest';
import os from 'node:os';
import { ConfigError, DNS_THREADS_CAP, loadConfig } from './config';

describe('CATALOG_ZONE', () => {
  it('is unset by default, and stored as the API stores zone names (lower case, A-labels, no trailing dot)', () => {
    expect(loadConfig({}).catalogZone).toBeUndefined();
    expect(loadConfig({ CATALOG_ZONE: 'Catalog.Example.NET.' }).catalogZone).toBe('catalog.example.net');
    expect(loadConfig({ CATALOG_ZONE: 'katalog.bücher.example' }).catalogZone).toBe('katalog.xn--bcher-kva.example');
  });

  it('stops the start with a message naming the variable when it is not a zone name', () => {
    for (const bad of ['catalog', 'bad_label.example.net', 'a..b', '-x.example']) {
      expect(() => loadConfig({ CATALOG_ZONE: bad })).toThrow(ConfigError);
      expect(() => loadConfig({ CATALOG_ZONE: bad })).toThrow(/CATALOG_ZONE: must be a domain name like catalog\.example\.net/);
    }
  });
});

describe('SECONDARIES', () => {
  it('reads host:port entries, IPv6 in brackets, each optionally naming the NOTIFY_TSIG key', () => {
    const NOTIFY_TSIG = 'hmac-sha256:xfr-key:c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0';
    const c = loadConfig({ SECONDARIES: '192.0.2.53:53, [2001:db8::53]:5300 XFR-Key., ns.example.net:53 xfr-key', NOTIFY_TSIG });
    expect(c.secondaries).toEqual([
      { host: '192.0.2.53', port: 53 },
      { host: '2001:db8::53', port: 5300, key: 'xfr-key' },
      { host: 'ns.example.net', port: 53, key: 'xfr-key' },
    ]);
    expect(c.notifyTsig).toBe(NOTIFY_TSIG);
    expect(loadConfig({}).secondaries).toEqual([]);
  });

  it('a key that is not NOTIFY_TSIG (a tenant’s) stops the start, naming both variables', () => {
    expect(() => loadConfig({ SECONDARIES: '192.0.2.53:53 tenant-key' })).toThrow(
      /SECONDARIES: 192\.0\.2\.53:53 names the key tenant-key, but NOTIFY is signed only with the service's own key, NOTIFY_TSIG \(unset\)/,
    );
    expect(() => loadConfig({ SECONDARIES: '192.0.2.53:53 tenant-key', NOTIFY_TSIG: 'hmac-sha256:ops-key:c2VjcmV0' })).toThrow(/NOTIFY_TSIG \(ops-key\)/);
    expect(() => loadConfig({ NOTIFY_TSIG: 'no secret' })).toThrow(/NOTIFY_TSIG: must be algorithm:name:secret/);
  });

  it.each(['192.0.2.53', '192.0.2.53:99999', '192.0.2.53:53 two keys', '2001:db8::53:53'])('stops the start on %j, naming the variable', (value) => {
    expect(() => loadConfig({ SECONDARIES: value })).toThrow(ConfigError);
    expect(() => loadConfig({ SECONDARIES: value })).toThrow(/SECONDARIES: .* must be host:port/);
  });
});

describe('DNS_PORT', () => {
  it('defaults to 1053, not 5353: the mDNS port that avahi and macOS hold would make the first start fail', () => {
    expect(loadConfig({}).dnsPort).toBe(1053);
    expect(loadConfig({ DNS_PORT: 'off' }).dnsPort).toBeNull();
  });
});

describe('STATS_DAYS, STATS_FLUSH_MS, METRICS_PER_ZONE', () => {
  it('count by default (90 days of hourly rows, a flush every 5 s, no per-zone metrics); off counts nothing', () => {
    expect(loadConfig({})).toMatchObject({ statsDays: 90, statsFlushMs: 5000, metricsPerZone: false });
    expect(loadConfig({ STATS_DAYS: 'off', METRICS_PER_ZONE: 'true', STATS_FLUSH_MS: '1000' })).toMatchObject({ statsDays: null, statsFlushMs: 1000, metricsPerZone: true });
  });

  it('stop the start on a bad value, naming the variable', () => {
    expect(() => loadConfig({ STATS_DAYS: '0' })).toThrow(/STATS_DAYS: must be "off" or a whole number of days/);
    expect(() => loadConfig({ STATS_FLUSH_MS: '5' })).toThrow(/STATS_FLUSH_MS: must be a whole number of milliseconds/);
    expect(() => loadConfig({ METRICS_PER_ZONE: 'yes' })).toThrow(/METRICS_PER_ZONE: must be true or false/);
  });
});

describe('DNS_THREADS', () => {
  it('asks for the cores by default, at most DNS_THREADS_CAP, or the number set', () => {
    expect(loadConfig({}).dnsThreads).toBe(Math.min(os.availableParallelism(), DNS_THREADS_CAP));
    expect(loadConfig({ DNS_THREADS: '4' }).dnsThreads).toBe(4);
  });

  it('stops the start on a bad value, naming the variable', () => {
    for (const bad of ['0', '-1', 'two', '1.5', '100']) expect(() => loadConfig({ DNS_THREADS: bad })).toThrow(/DNS_THREADS: must be a whole number of threads from 1 to 99/);
  });
});

describe('HTTP_MAX_INFLIGHT, HTTP_MAX_QUEUE, HTTP_QUEUE_WAIT_MS, HTTP_SHED_LOOP_DELAY_MS', () => {
  it('shed past 64 at once by default, with a queue four times that, 1.5 s of waiting and a loop 200 ms late; off watches no loop', () => {
    expect(loadConfig({}).overload).toEqual({ maxInflight: 64, maxQueue: 256, queueWaitMs: 1500, loopDelayMs: 200 });
    expect(loadConfig({ HTTP_MAX_INFLIGHT: '4' }).overload).toMatchObject({ maxInflight: 4, maxQueue: 16 });
    expect(loadConfig({ HTTP_MAX_INFLIGHT: '4', HTTP_MAX_QUEUE: '0', HTTP_QUEUE_WAIT_MS: '500', HTTP_SHED_LOOP_DELAY_MS: 'off' }).overload).toEqual({
      maxInflight: 4,
      maxQueue: 0,
      queueWaitMs: 500,
      loopDelayMs: null,
    });
  });

  it('stop the start on a bad value, naming the variable', () => {
    for (const bad of ['0', '-1', 'many', '1.5']) expect(() => loadConfig({ HTTP_MAX_INFLIGHT: bad })).toThrow(/HTTP_MAX_INFLIGHT: must be a whole number of requests from 1/);
    expect(() => loadConfig({ HTTP_MAX_QUEUE: 'ten' })).toThrow(/HTTP_MAX_QUEUE: must be a whole number of requests from 0/);
    expect(() => loadConfig({ HTTP_QUEUE_WAIT_MS: '0' })).toThrow(/HTTP_QUEUE_WAIT_MS: must be a whole number of milliseconds/);
    expect(() => loadConfig({ HTTP_SHED_LOOP_DELAY_MS: 'on' })).toThrow(/HTTP_SHED_LOOP_DELAY_MS: must be "off" or a whole number of milliseconds/);
  });
});
