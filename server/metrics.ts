/**
 * Prometheus metrics at /metrics: HTTP requests by route and status, their latency, and
 * DNS queries by rcode (counted by the DNS server through `countDnsQuery`).
 */
import type { Context } from 'hono';
import { routePath } from 'hono/route';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export const registry = new Registry();
collectDefaultMetrics({ register: registry });

const httpRequests = new Counter({
  name: 'zonedeck_http_requests_total',
  help: 'HTTP requests by route, method and status',
  labelNames: ['route', 'method', 'status'] as const,
  registers: [registry],
});

const httpDuration = new Histogram({
  name: 'zonedeck_http_request_duration_seconds',
  help: 'HTTP request latency by route',
  labelNames: ['route', 'method'] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
  registers: [registry],
});

/**
 * DNS responses by transport and rcode. The DNS hot path only bumps a slot of a typed array
 * (a label lookup per packet would cost a tenth of the query rate); Prometheus reads them on scrape.
 */
export const dnsResponses = { udp: new Float64Array(16), tcp: new Float64Array(16) };
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

/** Counts one response by the rcode in its header (RFC 1035 §4.1.1). */
export function countDnsResponse(transport: 'udp' | 'tcp', response: Buffer): void {
  if (response.length >= 4) dnsResponses[transport][response[3]! & 15]! += 1;
}

/** The route pattern that answered (never the concrete path: bounded label values). */
function routeOf(c: Context): string {
  // The handler that responded; '*' is the dashboard's catch-all (or no route at all).
  const path = routePath(c);
  return path && path !== '*' && path !== '/*' ? path : c.req.path.startsWith('/api/') ? 'unmatched' : 'dashboard';
}

type HttpSeries = { observe(seconds: number): void; inc(): void };
/** The series of each (route, method, status) seen so far: labels are checked and hashed once, not per request. */
const series = new Map<string, HttpSeries>();

/** Counts one answered request and its latency under the route that answered it. */
export function countHttpRequest(c: Context, seconds: number): void {
  const route = routeOf(c);
  const method = c.req.method;
  const status = String(c.res.status);
  const key = `${method} ${status} ${route}`;
  let s = series.get(key);
  if (s === undefined) {
    const duration = httpDuration.labels(route, method);
    const count = httpRequests.labels(route, method, status);
    s = { observe: duration.observe, inc: count.inc };
    // Routes and statuses are few; the bound only guards against a bug that would make them many.
    if (series.size < 10_000) series.set(key, s);
  }
  s.observe(seconds);
  s.inc();
}
