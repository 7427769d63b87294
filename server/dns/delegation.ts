/**
 * The delegation check (DESIGN.md §3, `delegated`): asks the configured resolver for a
 * zone's NS set and records whether it equals the configured name servers. It runs when
 * a zone is created and then periodically. A resolver that does not answer leaves the
 * flag as it was: only a real answer changes it.
 */
import dgram from 'node:dgram';
import net from 'node:net';
import packet from 'dns-packet';
import type { Store } from '../store/types';
import { parseHostPort, type Secondary } from './notify';

export interface DelegationOptions {
  resolver: string;
  nameservers: string[];
  timeoutMs?: number;
  onError?(err: unknown): void;
}

const normalize = (name: string) => name.toLowerCase().replace(/\.$/, '');

/** The NS set the resolver returns for `zone`, or null when it gave no usable answer. */
export async function askNs(resolver: Secondary, zone: string, timeoutMs: number): Promise<string[] | null> {
  const socket = dgram.createSocket(net.isIPv6(resolver.host) ? 'udp6' : 'udp4');
  const id = Math.floor(Math.random() * 0x10000);
  const query = packet.encode({ id, type: 'query', flags: packet.RECURSION_DESIRED, questions: [{ type: 'NS', name: zone }] });
  try {
    return await new Promise<string[] | null>((resolve) => {
      const timer = setTimeout(() => resolve(null), timeoutMs);
      socket.on('error', () => resolve(null));
      socket.on('message', (msg) => {
        let reply;
        try {
          reply = packet.decode(msg);
        } catch {
          return;
        }
        if (reply.id !== id) return;
        clearTimeout(timer);
        // dns-packet decodes the RCODE, but its types do not declare it.
        const rcode = (reply as { rcode?: string }).rcode;
        if (rcode === 'NXDOMAIN') return resolve([]);
        if (rcode !== 'NOERROR') return resolve(null);
        const ns = (reply.answers ?? [])
          .filter((a) => a.type === 'NS' && normalize(a.name) === zone)
          .map((a) => normalize((a as { data: string }).data));
        resolve(ns);
      });
      socket.send(query, resolver.port, resolver.host);
    });
  } finally {
    socket.close();
  }
}

export function sameSet(a: string[], b: string[]): boolean {
  const x = new Set(a.map(normalize));
  const y = new Set(b.map(normalize));
  return x.size === y.size && [...x].every((n) => y.has(n));
}

export function createDelegationCheck(store: Store, options: DelegationOptions) {
  const resolver = parseHostPort(options.resolver);
  const timeoutMs = options.timeoutMs ?? 3000;

  /** Checks one zone by id and stores the result when it changed; returns it (null: unknown). */
  async function check(domainId: number): Promise<boolean | null> {
    const domain = await store.domains.byId(domainId);
    if (!domain) return null;
    const ns = await askNs(resolver, domain.name, timeoutMs);
    if (ns === null) return null;
    const delegated = ns.length > 0 && sameSet(ns, options.nameservers);
    // Read again: the zone may have gone while the resolver was asked.
    const now = await store.domains.byId(domainId);
    if (now && now.delegated !== delegated) await store.domains.update(now, { delegated });
    return delegated;
  }

  let running = false;

  /** Checks every zone, one at a time; a round still running when the next is due is not doubled. */
  async function checkAll(): Promise<void> {
    if (running) return;
    running = true;
    try {
      for (const d of await store.domains.all()) {
        try {
          await check(d.id);
        } catch (err) {
          options.onError?.(err);
        }
      }
    } finally {
      running = false;
    }
  }

  return { check, checkAll };
}
