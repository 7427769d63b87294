/**
 * One webhook delivery: a JSON POST to the webhook's URL. The host is resolved once and every
 * address it has is judged (a name that resolves to an inside address is refused, whatever else it
 * resolves to); the connection goes to the address judged, pinned, so a second resolution cannot
 * rebind it inside. The certificate is verified for the URL's host; no redirect is followed (it
 * counts as a failure); at most 64 KiB of the answer is read; one timeout covers the whole exchange.
 * It never throws: the result says what happened.
 */
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { isPublicAddress } from '../core/ip-range';
import { BODY_LIMIT, socketWords, type OutboundPolicy } from './probe';

export interface Delivery {
  url: string;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
}

export interface DeliveryResult {
  /** The HTTP status, or null when none came. */
  status: number | null;
  /** Why it failed, in a few words; null for a 2xx. */
  error: string | null;
  ms: number;
}

/** The address to connect to: the URL's IP literal, or the first of the name's addresses once all are judged. */
async function target(host: string, policy: OutboundPolicy): Promise<string> {
  const bare = host.startsWith('[') ? host.slice(1, -1) : host;
  const addresses = net.isIP(bare) ? [bare] : (await dns.promises.lookup(bare, { all: true, verbatim: true })).map((a) => a.address);
  if (addresses.length === 0) throw new Error(`${bare} has no address`);
  if (!policy.allowPrivate) {
    const inside = addresses.find((a) => !isPublicAddress(a));
    if (inside) throw new Error(`${bare === inside ? inside : `${bare} resolves to ${inside}, which`} is not a public address (WEBHOOK_ALLOW_PRIVATE is off)`);
  }
  return addresses[0]!;
}

export async function deliver(d: Delivery, policy: OutboundPolicy): Promise<DeliveryResult> {
  const started = performance.now();
  const done = (status: number | null, error: string | null): DeliveryResult => ({ status, error, ms: Math.round(performance.now() - started) });
  let url: URL;
  try {
    url = new URL(d.url);
  } catch {
    return done(null, 'not a URL');
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password) return done(null, 'only http and https URLs without credentials are sent to');
  const deadline = AbortSignal.timeout(d.timeoutMs);
  let address: string;
  try {
    address = await Promise.race([
      target(url.hostname, policy),
      new Promise<never>((_, reject) => deadline.addEventListener('abort', () => reject(new Error(`timed out after ${d.timeoutMs} ms`)), { once: true })),
    ]);
  } catch (e) {
    return done(null, e instanceof Error ? e.message : String(e));
  }
  const client = url.protocol === 'https:' ? https : http;
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (r: DeliveryResult) => {
      if (settled) return;
      settled = true;
      resolve(r);
      req.destroy();
    };
    const req = client.request({
      method: 'POST',
      host: address,
      port: url.port || (url.protocol === 'https:' ? 443 : 80),
      path: `${url.pathname}${url.search}`,
      headers: { ...d.headers, host: url.host, 'content-type': 'application/json', 'content-length': Buffer.byteLength(d.body), 'user-agent': 'zonedeck-webhooks', connection: 'close' },
      agent: false,
      signal: deadline,
      ...(policy.sourceAddress ? { localAddress: policy.sourceAddress } : {}),
      // The certificate is judged for the URL's name, not for the address connected to.
      ...(url.protocol === 'https:' ? { servername: net.isIP(host) ? undefined : host } : {}),
    });
    req.once('error', (err) => finish(done(null, deadline.aborted ? `timed out after ${d.timeoutMs} ms` : socketWords(err))));
    req.once('response', (res) => {
      const status = res.statusCode ?? 0;
      let read = 0;
      res.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read >= BODY_LIMIT) finish(answer(status));
      });
      res.once('end', () => finish(answer(status)));
      res.once('error', () => finish(answer(status)));
    });
    const answer = (status: number): DeliveryResult =>
      status >= 200 && status <= 299 ? done(status, null) : done(status, status >= 300 && status <= 399 ? `HTTP ${status}: redirect not followed` : `HTTP ${status}`);
    req.end(d.body);
  });
}
