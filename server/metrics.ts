/**
 * Prometheus metrics at /metrics: HTTP requests by route and status, their latency, and
 * DNS queries by rcode (counted by the DNS server through `countDnsQuery`).
 */
import type { Context } from 'hono';
import { matchedRoutes, routePath } from 'hono/route';
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import { backgroundFailureCounts, countBackgroundFailure, DEFENCE, dnsDefences, dnsResponses, dnsThreadBackgroundFailures, SNAPSHOT_FAULT, snapshotFaults } from './counters';

export const registry = new Registry();
collectDefaultMetrics({ register: registry });

/**
 * HTTP requests and their latency, tallied in plain numbers on the request path (prom-client's
 * label checks and hashing per request cost more than the rest of the metrics); Prometheus
 * reads them on scrape, as it reads the DNS counters below.
 */
type Latency = { route: string; method: string; count: number; sum: number; buckets: Float64Array };
type Series = { labels: { route: string; method: string; status: string }; count: number; latency: Latency };

const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
/** By `${method} ${status} ${route}`, and the latencies by `${method} ${route}` (a histogram has no status label). */
const series = new Map<string, Series>();
const latencies = new Map<string, Latency>();

new Counter({
  name: 'zonedeck_http_requests_total',
  help: 'HTTP requests by route, method and status',
  labelNames: ['route', 'method', 'status'] as const,
  registers: [registry],
  collect() {
    this.reset();
    for (const s of series.values()) this.inc(s.labels, s.count);
  },
});

/** The latency histogram exactly as a prom-client Histogram exposes it: cumulative buckets, +Inf, sum and count. */
const HISTOGRAM = 'zonedeck_http_request_duration_seconds';
const histogram = { name: HISTOGRAM, help: 'HTTP request latency by route', type: 'histogram', aggregator: 'sum' } as const;
registry.registerMetric({
  ...histogram,
  async get() {
    const values: { labels: Record<string, string | number>; value: number; metricName: string }[] = [];
    for (const { route, method, count, sum, buckets } of latencies.values()) {
      let below = 0;
      DURATION_BUCKETS.forEach((le, i) => {
        below += buckets[i]!;
        values.push({ labels: { le, route, method }, value: below, metricName: `${HISTOGRAM}_bucket` });
      });
      values.push({ labels: { le: '+Inf', route, method }, value: count, metricName: `${HISTOGRAM}_bucket` });
      values.push({ labels: { route, method }, value: sum, metricName: `${HISTOGRAM}_sum` });
      values.push({ labels: { route, method }, value: count, metricName: `${HISTOGRAM}_count` });
    }
    return { ...histogram, values };
  },
  reset() {
    series.clear();
    latencies.clear();
  },
} as unknown as Parameters<Registry['registerMetric']>[0]);

/** DNS responses by transport and rcode, from the DNS server's own counters (counters.ts). */
const RCODES = ['NOERROR', 'FORMERR', 'SERVFAIL', 'NXDOMAIN', 'NOTIMP', 'REFUSED', 'YXDOMAIN', 'YXRRSET', 'NXRRSET', 'NOTAUTH', 'NOTZONE'];

new Counter({
  name: 'zonedeck_dns_responses_total',
  help: 'DNS responses sent, by transport and rcode',
  labelNames: ['transport', 'rcode'] as const,
  registers: [registry],
  collect() {
    this.reset();
    for (const transport of ['udp', 'tcp'] as const) {
      dnsResponses[transport].forEach((n, code) => {
        if (n > 0) this.inc({ transport, rcode: RCODES[code] ?? String(code) }, n);
      });
    }
  },
});

/**
 * What each UDP thread counted (DNS_THREADS > 1: dns/wire/udp-threads.ts): datagrams received,
 * dropped for a full queue, answers sent, restarts. `read` is set where the DNS server runs (its
 * thread's last report, or the server itself when it runs in this thread).
 */
export const dnsUdpThreads: { read: () => readonly { received: number; dropped: number; sent: number; restarts: number }[] } = { read: () => [] };

new Counter({
  name: 'zonedeck_dns_udp_thread_datagrams_total',
  help: 'Datagrams of each UDP thread (DNS_THREADS > 1): received, dropped (a full queue between threads), sent',
  labelNames: ['thread', 'datagrams'] as const,
  registers: [registry],
  collect() {
    this.reset();
    dnsUdpThreads.read().forEach((t, i) => {
      const thread = String(i + 1);
      this.inc({ thread, datagrams: 'received' }, t.received);
      this.inc({ thread, datagrams: 'dropped' }, t.dropped);
      this.inc({ thread, datagrams: 'sent' }, t.sent);
    });
  },
});

new Counter({
  name: 'zonedeck_dns_udp_thread_restarts_total',
  help: 'Times a UDP thread stopped and was started again on the same port',
  labelNames: ['thread'] as const,
  registers: [registry],
  collect() {
    this.reset();
    dnsUdpThreads.read().forEach((t, i) => this.inc({ thread: String(i + 1) }, t.restarts));
  },
});

/** NOTIFY messages for secondary zones, counted with the DNS port's defences. */
new Counter({
  name: 'zonedeck_dns_notify_total',
  help: 'NOTIFY messages received for secondary zones (RFC 1996): taken (from a listed primary, signed when the zone has a key), ignored (any other)',
  labelNames: ['result'] as const,
  registers: [registry],
  collect() {
    this.reset();
    this.inc({ result: 'taken' }, dnsDefences[DEFENCE.NOTIFY_TAKEN]!);
    this.inc({ result: 'ignored' }, dnsDefences[DEFENCE.NOTIFY_IGNORED]!);
  },
});

/**
 * The start-up snapshot's faults, counted in the DNS thread and read here on scrape: a file that
 * could not be read (the zones came from the database), a zone whose block was damaged (that zone
 * came from the database), a write that failed (tried again later).
 */
new Counter({
  name: 'zonedeck_snapshot_faults_total',
  help: 'Faults of the DNS index start-up snapshot: unreadable (cut short, altered or of another version: every zone read from the database), zone_damaged (one block failed its checksum: that zone read from the database), write_failed (a full disk or no permission: tried again later)',
  labelNames: ['fault'] as const,
  registers: [registry],
  collect() {
    this.reset();
    for (const [fault, slot] of Object.entries(SNAPSHOT_FAULT)) this.inc({ fault }, snapshotFaults[slot]!);
  },
});

/** Checks of secondary zones against their primaries (services/secondary/refresh.ts), by outcome. */
export const secondaryTransfers = { ok: 0, failed: 0 };

new Counter({
  name: 'zonedeck_secondary_refreshes_total',
  help: 'Checks of secondary zones against their primaries: ok (current, or transferred), failed (no primary answered well; the zone shows why)',
  labelNames: ['result'] as const,
  registers: [registry],
  collect() {
    this.reset();
    this.inc({ result: 'ok' }, secondaryTransfers.ok);
    this.inc({ result: 'failed' }, secondaryTransfers.failed);
  },
});

/** DNSSEC rollover steps made by this node, by kind and step reached, and the zones whose rollover waits on a parent that does not move or cannot be asked (services/dnssec/rollovers.ts). */
export const dnssecRollovers = { steps: new Map<string, number>(), stalled: 0 };

new Counter({
  name: 'zonedeck_dnssec_rollover_steps_total',
  help: 'DNSSEC key rollover steps made by this node, by rollover kind and the step reached (done: the rollover finished)',
  labelNames: ['kind', 'step'] as const,
  registers: [registry],
  collect() {
    this.reset();
    for (const [k, n] of dnssecRollovers.steps) {
      const [kind, step] = k.split(' ') as [string, string];
      this.inc({ kind, step }, n);
    }
  },
});

new Gauge({
  name: 'zonedeck_dnssec_rollovers_waiting_on_parent',
  help: 'Signed zones whose rollover has waited more than a day for the parent to serve the new DS, or cannot ask it (no RESOLVER, no answer); both keys keep validating meanwhile',
  registers: [registry],
  collect() {
    this.set(dnssecRollovers.stalled);
  },
});

/** Webhook delivery attempts made by this node (services/webhooks/delivery-driver.ts), by `${event} ${outcome}`. */
export const webhookDeliveries = new Map<string, number>();

new Counter({
  name: 'zonedeck_webhook_deliveries_total',
  help: 'Webhook delivery attempts made by this node, by event and outcome: delivered (a 2xx), retrying (tried again later), failed (no 2xx within 24 hours of the event)',
  labelNames: ['event', 'outcome'] as const,
  registers: [registry],
  collect() {
    this.reset();
    for (const [k, n] of webhookDeliveries) {
      const [event, outcome] = k.split(' ') as [string, string];
      this.inc({ event, outcome }, n);
    }
  },
});

/** Pools' health on this node: its checks by outcome, the members' judged states, and the changes this node judged. */
export const poolHealth = { checks: { ok: 0, failed: 0 }, members: new Map<string, number>(), transitions: new Map<string, number>() };

new Counter({
  name: 'zonedeck_health_checks_total',
  help: 'Health checks of pool members this node made, by outcome',
  labelNames: ['outcome'] as const,
  registers: [registry],
  collect() {
    this.reset();
    this.inc({ outcome: 'ok' }, poolHealth.checks.ok);
    this.inc({ outcome: 'failed' }, poolHealth.checks.failed);
  },
});

new Gauge({
  name: 'zonedeck_pool_members',
  help: 'Pool members by the state every node together judged (unknown: not judged yet, answered)',
  labelNames: ['state'] as const,
  registers: [registry],
  collect() {
    this.reset();
    for (const state of ['up', 'down', 'unknown']) this.set({ state }, poolHealth.members.get(state) ?? 0);
  },
});

new Counter({
  name: 'zonedeck_pool_member_transitions_total',
  help: 'Changes of a pool member state judged by this node, by the state reached',
  labelNames: ['to'] as const,
  registers: [registry],
  collect() {
    this.reset();
    for (const [to, n] of poolHealth.transitions) this.inc({ to }, n);
  },
});

new Counter({
  name: 'zonedeck_dns_rate_limited_total',
  help: 'UDP responses held back by response rate limiting (DNS_RATE_LIMIT): dropped, or slipped (sent truncated)',
  labelNames: ['action'] as const,
  registers: [registry],
  collect() {
    this.reset();
    this.inc({ action: 'dropped' }, dnsDefences[DEFENCE.RRL_DROPPED]!);
    this.inc({ action: 'slipped' }, dnsDefences[DEFENCE.RRL_SLIPPED]!);
  },
});

new Counter({
  name: 'zonedeck_dns_cookies_total',
  help: 'Queries with a DNS cookie (RFC 7873), by the server cookie they returned: good, new (none), bad',
  labelNames: ['result'] as const,
  registers: [registry],
  collect() {
    this.reset();
    this.inc({ result: 'good' }, dnsDefences[DEFENCE.COOKIE_GOOD]!);
    this.inc({ result: 'new' }, dnsDefences[DEFENCE.COOKIE_NEW]!);
    this.inc({ result: 'bad' }, dnsDefences[DEFENCE.COOKIE_BAD]!);
  },
});

/**
 * Per-zone answers by rcode category (METRICS_PER_ZONE=true only: a series per zone and category
 * is more than most Prometheus servers should take from a host of many zones). Added from the
 * DNS thread's batches of query statistics, in the main thread.
 */
export const zoneAnswers = new Map<string, Float64Array>();
export const ZONE_RCODES = ['noerror', 'nxdomain', 'nodata', 'refused', 'servfail', 'other'] as const;

new Counter({
  name: 'zonedeck_dns_zone_answers_total',
  help: 'DNS answers per zone by rcode category (noerror, nxdomain, nodata, refused, servfail, other); only with METRICS_PER_ZONE=true',
  labelNames: ['zone', 'rcode'] as const,
  registers: [registry],
  collect() {
    this.reset();
    for (const [zone, counts] of zoneAnswers) ZONE_RCODES.forEach((rcode, i) => counts[i]! > 0 && this.inc({ zone, rcode }, counts[i]!));
  },
});

/** Background jobs that failed (server/background.ts); each failure is also logged, with the zone when it concerns one. */
const backgroundFailuresTotal = new Counter({
  name: 'zonedeck_background_failures_total',
  help: 'Background work that failed and will be retried with backoff: job="resign" (the weekly serial bump that refreshes signatures at secondaries), "prune-history", "prune-audit", "delegation", "prune-webhook-deliveries", "webhook-emit" (an event that could not be queued for the webhooks), "analytics-write" (query counts the store refused: kept in memory and written later)',
  labelNames: ['job'] as const,
  registers: [registry],
  collect() {
    this.reset();
    for (const counts of [backgroundFailureCounts, dnsThreadBackgroundFailures]) for (const [job, n] of counts) this.inc({ job }, n);
  },
});

/** Counts a failure of background work by job (the counts live in counters.ts, where the DNS thread counts its own). */
export const backgroundFailures = { inc: ({ job }: { job: string }) => countBackgroundFailure(job), get: () => backgroundFailuresTotal.get() };

/** Signed zones whose signatures at the secondaries expire within 3 days (as /readyz reports them). */
export const signaturesExpiring = new Gauge({
  name: 'zonedeck_dnssec_signatures_expiring_zones',
  help: 'Signed zones whose signatures at the secondaries expire within 3 days: the weekly re-sign has been failing (checked at most once a minute)',
  registers: [registry],
});

/**
 * The HTTP faces' load shedding (server/http/overload.ts): requests served now and waiting for a
 * place, and those refused 503 `overloaded`, by why. Plain numbers on the request path, read on scrape.
 */
export const httpLoad = { inflight: 0, queued: 0, shed: { queue_full: 0, queue_wait: 0, loop_delay: 0 } };

new Gauge({
  name: 'zonedeck_http_inflight_requests',
  help: 'API, PowerDNS API and dashboard backend requests being served now (at most HTTP_MAX_INFLIGHT); health checks, metrics and the dashboard files are not counted',
  registers: [registry],
  collect() {
    this.set(httpLoad.inflight);
  },
});

new Gauge({
  name: 'zonedeck_http_queued_requests',
  help: 'Requests waiting for one of the HTTP_MAX_INFLIGHT places (at most HTTP_MAX_QUEUE)',
  registers: [registry],
  collect() {
    this.set(httpLoad.queued);
  },
});

new Counter({
  name: 'zonedeck_http_shed_total',
  help: 'Requests refused 503 overloaded, by reason: queue_full (no place to wait), queue_wait (waited HTTP_QUEUE_WAIT_MS), loop_delay (the event loop was late by more than HTTP_SHED_LOOP_DELAY_MS)',
  labelNames: ['reason'] as const,
  registers: [registry],
  collect() {
    this.reset();
    for (const [reason, n] of Object.entries(httpLoad.shed)) this.inc({ reason }, n);
  },
});

/** The route pattern that answered (never the concrete path: bounded label values). */
function routeOf(c: Context): string {
  // The handler that responded; '*' is the dashboard's catch-all (or no route at all). A check that
  // answered before the handler (a 404 for a path's zone, a 403 for a scope) counts under the
  // handler's route, the last concrete route the request matched.
  let path = routePath(c);
  if (path?.endsWith('*')) path = matchedRoutes(c).findLast((r) => !r.path.endsWith('*'))?.path ?? path;
  return path && path !== '*' && path !== '/*' ? path : c.req.path.startsWith('/api/') ? 'unmatched' : 'dashboard';
}

/** Counts one answered request and its latency under the route that answered it. */
export function countHttpRequest(c: Context, seconds: number): void {
  const route = routeOf(c);
  const method = c.req.method;
  const status = c.res.status;
  const key = `${method} ${status} ${route}`;
  let s = series.get(key);
  if (s === undefined) {
    let latency = latencies.get(`${method} ${route}`);
    if (latency === undefined) {
      latency = { route, method, count: 0, sum: 0, buckets: new Float64Array(DURATION_BUCKETS.length) };
      latencies.set(`${method} ${route}`, latency);
    }
    s = { labels: { route, method, status: String(status) }, count: 0, latency };
    series.set(key, s);
  }
  s.count += 1;
  const latency = s.latency;
  latency.count += 1;
  latency.sum += seconds;
  // The first bucket it fits (prom-client's `value <= bound`); past the last one only +Inf counts it.
  const i = DURATION_BUCKETS.findIndex((le) => seconds <= le);
  if (i >= 0) latency.buckets[i]! += 1;
}
