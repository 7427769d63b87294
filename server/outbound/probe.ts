/**
 * One health check of one pool member: a TCP connection, or an HTTP(S) GET judged by its status
 * and, optionally, its body. Bounded every way: one timeout over connect, TLS, headers and body; at
 * most 64 KiB of body read; no redirect followed (a 3xx is judged by its status like any other);
 * nothing sent to an address the policy refuses. It never throws: the verdict says what happened.
 */
import net from 'node:net';
import http from 'node:http';
import https from 'node:https';
import { isPublicAddress } from '../core/ip-range';
import type { ProbeSpec } from '../core/pools';

export interface OutboundPolicy {
  /** HEALTH_ALLOW_PRIVATE / WEBHOOK_ALLOW_PRIVATE: private, loopback and link-local addresses may be reached. */
  allowPrivate: boolean;
  /** The local address connections are made from (HEALTH_SOURCE_ADDRESS). */
  sourceAddress?: string;
}

export interface ProbeResult {
  ok: boolean;
  detail: string;
  ms: number;
  status?: number;
}

/** The most of a body a check reads. */
export const BODY_LIMIT = 64 * 1024;

/** Plain words for a socket's error. */
export function socketWords(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  switch (e.code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
      return 'connection reset';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'no route to the address';
    case 'EADDRNOTAVAIL':
      return 'the source address is not this machine’s';
    default:
      return e.code?.startsWith('ERR_TLS') || e.code?.includes('CERT') || /certificate/i.test(e.message ?? '') ? `TLS: ${e.message}` : (e.message ?? String(err));
  }
}

export function probe(spec: ProbeSpec, policy: OutboundPolicy): Promise<ProbeResult> {
  const started = performance.now();
  const done = (ok: boolean, detail: string, status?: number): ProbeResult => ({ ok, detail, ms: Math.round(performance.now() - started), ...(status === undefined ? {} : { status }) });
  if (!policy.allowPrivate && !isPublicAddress(spec.address)) return Promise.resolve(done(false, `not checked: ${spec.address} is not a public address (HEALTH_ALLOW_PRIVATE is off)`));
  return new Promise((resolve) => {
    let settled = false;
    const finish = (r: ProbeResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(r);
    };
    const timer = setTimeout(() => {
      finish(done(false, `timed out after ${spec.timeoutMs} ms`));
      cleanup();
    }, spec.timeoutMs);
    let cleanup = () => {};
    const local = policy.sourceAddress ? { localAddress: policy.sourceAddress } : {};
    if (spec.kind === 'tcp') {
      const socket = net.connect({ host: spec.address, port: spec.port, ...local });
      cleanup = () => socket.destroy();
      socket.once('connect', () => {
        finish(done(true, 'connected'));
        socket.destroy();
      });
      socket.once('error', (err) => finish(done(false, socketWords(err))));
      return;
    }
    const client = spec.kind === 'https' ? https : http;
    const req = client.request({
      host: spec.address,
      port: spec.port,
      path: spec.path,
      method: 'GET',
      headers: { host: spec.host, 'user-agent': 'zonedeck-health-check', accept: '*/*', connection: 'close' },
      agent: false,
      ...local,
      ...(spec.kind === 'https' ? { servername: net.isIP(spec.host) ? undefined : spec.host, rejectUnauthorized: spec.tlsVerify } : {}),
    });
    cleanup = () => req.destroy();
    req.once('error', (err) => finish(done(false, socketWords(err))));
    req.once('response', (res) => {
      const status = res.statusCode ?? 0;
      const [lo, hi] = spec.expectStatus;
      const range = lo === hi ? `${lo}` : `${lo}–${hi}`;
      if (status < lo || status > hi) {
        finish(done(false, `HTTP ${status} (expected ${range})`, status));
        req.destroy();
        return;
      }
      if (!spec.expectBody) {
        finish(done(true, `HTTP ${status}`, status));
        req.destroy();
        return;
      }
      const want = spec.expectBody;
      let body = '';
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        body += chunk.toString('utf8');
        if (body.includes(want)) {
          finish(done(true, `HTTP ${status}`, status));
          req.destroy();
        } else if (bytes >= BODY_LIMIT) {
          finish(done(false, `HTTP ${status}, but the first 64 KiB of the body do not contain "${want}"`, status));
          req.destroy();
        }
      });
      res.once('end', () => finish(done(false, `HTTP ${status}, but the body does not contain "${want}"`, status)));
      res.once('error', (err) => finish(done(false, socketWords(err), status)));
    });
    req.end();
  });
}
