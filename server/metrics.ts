/**
 * Prometheus metrics at /metrics: HTTP requests by route and status, their latency, and
 * DNS queries by rcode (counted by the DNS server through `countDnsQuery`).
 */
import type { MiddlewareHandler } from 'hono';
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

const dnsQueries = new Counter({
  name: 'zonedeck_dns_queries_total',
  help: 'DNS queries answered, by transport and rcode',
  labelNames: ['transport', 'rcode'] as const,
  registers: [registry],
});

export function countDnsQuery(transport: 'udp' | 'tcp', rcode: string): void {
  dnsQueries.inc({ transport, rcode });
}

/** The route pattern that answered (never the concrete path: bounded label values). */
function routeOf(c: Parameters<MiddlewareHandler>[0]): string {
  // The handler that responded; '*' is the dashboard's catch-all (or no route at all).
  const path = routePath(c);
  return path && path !== '*' && path !== '/*' ? path : c.req.path.startsWith('/api/') ? 'unmatched' : 'dashboard';
}

export const httpMetrics: MiddlewareHandler = async (c, next) => {
  const end = httpDuration.startTimer();
  await next();
  const route = routeOf(c);
  end({ route, method: c.req.method });
  httpRequests.inc({ route, method: c.req.method, status: String(c.res.status) });
};
