/**
 * Who is asking, and at which site: the peer address of a request, and — only when that peer
 * is a proxy listed in TRUST_PROXY — the client and the site that proxy reports in
 * X-Forwarded-For, X-Forwarded-Proto and X-Forwarded-Host. From any other peer those headers
 * are ignored, so nobody can claim another address (rate limits, token `allowed_ips`, the
 * sign-in throttle, the audit log) or another site (the dashboard's Origin check).
 */
import type { Context, MiddlewareHandler } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';
import ipaddr from 'ipaddr.js';

/** A TRUST_PROXY entry: an address or a network. */
export interface ProxyRange {
  address: string;
  cidr: number;
}

/** What a trusted proxy said about a request. */
interface Forwarded {
  /** The client's address: the nearest X-Forwarded-For hop that is not itself a trusted proxy. */
  address?: string;
  /** The site as the browser sees it: scheme and host from X-Forwarded-Proto/Host. */
  origin?: string;
}

/** Kept by the request object itself, so the BFF (mounted on the same request) reads it too. */
const forwarded = new WeakMap<Request, Forwarded>();

/** Most hops read from X-Forwarded-For, and longest header value looked at. */
const MAX_HOPS = 16;
const MAX_HEADER = 2048;

/** An address in its plain form (IPv4-mapped IPv6 as IPv4), or undefined for a non-address. */
function plain(text: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  try {
    return ipaddr.process(text.trim());
  } catch {
    return undefined;
  }
}

/** A TRUST_PROXY entry parsed once, not per request. */
type Network = [ipaddr.IPv4 | ipaddr.IPv6, number];

function trusted(networks: readonly Network[], addr: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  return networks.some(([net, cidr]) => net.kind() === addr.kind() && (addr as ipaddr.IPv4).match(net as ipaddr.IPv4, cidr));
}

/** The peer address of the TCP connection, undefined for in-process calls (the BFF, tests). */
function peerAddress(c: Context): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    return undefined;
  }
}

/** The last value of a comma-separated forwarding header: what the nearest (trusted) proxy set. */
function lastValue(header: string | undefined): string | undefined {
  if (header === undefined || header.length > MAX_HEADER) return undefined;
  const v = header.split(',').at(-1)?.trim();
  return v ? v : undefined;
}

/** A host[:port] a proxy may report: a DNS name or an IP literal, nothing else. */
const HOST = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::[0-9]{1,5})?$/i;

/**
 * Reads the forwarding headers of requests whose peer is a listed proxy. With no list, does
 * nothing: the request's own peer and URL are the truth.
 */
export function trustProxy(ranges: readonly ProxyRange[]): MiddlewareHandler {
  const networks: Network[] = ranges.map((r) => [ipaddr.parse(r.address), r.cidr]);
  return async (c, next) => {
    if (networks.length === 0) return next();
    const peer = peerAddress(c);
    const peerAddr = peer === undefined ? undefined : plain(peer);
    if (!peerAddr || !trusted(networks, peerAddr)) return next();
    const out: Forwarded = {};
    const xff = c.req.header('x-forwarded-for');
    if (xff !== undefined && xff.length <= MAX_HEADER) {
      // From the right: every hop a trusted proxy added, until the first one that is not trusted.
      const hops = xff.split(',').slice(-MAX_HOPS).reverse();
      for (const hop of hops) {
        const addr = plain(hop);
        if (!addr) break;
        out.address = addr.toString();
        if (!trusted(networks, addr)) break;
      }
    }
    const proto = lastValue(c.req.header('x-forwarded-proto'))?.toLowerCase();
    const host = lastValue(c.req.header('x-forwarded-host'));
    if (proto === 'https' || proto === 'http') {
      const h = host !== undefined && HOST.test(host) ? host.toLowerCase() : new URL(c.req.url).host;
      out.origin = new URL(`${proto}://${h}`).origin;
    } else if (host !== undefined && HOST.test(host)) {
      out.origin = new URL(`${new URL(c.req.url).protocol}//${host.toLowerCase()}`).origin;
    }
    forwarded.set(c.req.raw, out);
    return next();
  };
}

/** The client's address: a trusted proxy's word for it, else the peer's; undefined in process. */
export function clientAddress(c: Context): string | undefined {
  return forwarded.get(c.req.raw)?.address ?? peerAddress(c);
}

/** The site's origin as the browser sees it: a trusted proxy's word for it, else the request URL's. */
export function requestOrigin(c: Context): string {
  return forwarded.get(c.req.raw)?.origin ?? new URL(c.req.url).origin;
}
