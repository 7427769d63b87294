/**
 * NOTIFY (RFC 1996) to the configured secondaries whenever a zone's serial changes, so
 * they transfer the new version at once instead of waiting for the SOA refresh timer.
 * Each message is retried until the secondary answers with the same ID (§3.6, §4.2);
 * a newer serial for the same zone and secondary replaces a pending one. A secondary
 * configured with a key (`host:port key-name`) gets the NOTIFY signed (RFC 8945) with the
 * service's own key, NOTIFY_TSIG. A zone's own targets (its `also_notify`) come with each
 * notify, signed with the zone's transfer key when it has one (zone-transfers.ts).
 */
import { parseHostPort, type HostPort } from '../../core/host-port';
import dgram from 'node:dgram';
import net from 'node:net';
import { CLASS_IN, T, type RRset } from '../index/rrset';
import { signRequest, type TsigKey } from '../tsig/tsig';
import { MessageWriter } from '../wire/writer';

/** A secondary to NOTIFY (SECONDARIES), with the name of the TSIG key to sign NOTIFY with. */
export interface Secondary extends HostPort {
  key?: string;
}
export { parseHostPort };

/** One of a zone's own NOTIFY targets, with the key (its owner's) to sign with, if any. */
export interface ZoneNotifyTarget extends HostPort {
  tsig?: TsigKey;
}

export interface NotifyOptions {
  retryMs?: number;
  attempts?: number;
  /** NOTIFY_TSIG: the service's key, the only one NOTIFY is signed with. */
  serviceKey?: TsigKey;
  onError?(err: unknown): void;
}

/** Parses "host:port" and "[v6]:port" (the SECONDARIES syntax). */

const OPCODE_NOTIFY = 4 << 11;
const AA = 0x0400;

/** A NOTIFY message for a zone, with its SOA in the answer section as a hint (RFC 1996 §3.7). */
export function notifyMessage(id: number, soa: RRset): Buffer {
  const w = new MessageWriter(512);
  w.header(id, OPCODE_NOTIFY | AA);
  w.question(soa.name, T.SOA, CLASS_IN);
  w.rrset(soa);
  w.counts(1, 1, 0, 0);
  return w.finish();
}

interface Pending {
  id: number;
  timer: NodeJS.Timeout;
}

export class Notifier {
  private readonly sockets = new Map<'udp4' | 'udp6', dgram.Socket>();
  private readonly pending = new Map<string, Pending>();
  private readonly byId = new Map<number, string>();
  private readonly retryMs: number;
  private readonly attempts: number;

  constructor(
    private readonly secondaries: Secondary[],
    private readonly options: NotifyOptions = {},
  ) {
    this.retryMs = options.retryMs ?? 2000;
    this.attempts = options.attempts ?? 5;
  }

  /** Notifies every secondary of the zone whose current SOA is `soa`, and the zone's own targets. */
  notify(soa: RRset, also: readonly ZoneNotifyTarget[] = []): void {
    for (const s of this.secondaries) this.send(`${soa.name} ${s.host}:${s.port}`, s, soa, this.serviceKeyFor(s));
    // A target in both lists is told once, as the zone says (a later send replaces a pending one).
    for (const t of also) this.send(`${soa.name} ${t.host}:${t.port}`, t, soa, t.tsig ?? null);
  }

  /** The key a SECONDARIES entry is signed with: none, NOTIFY_TSIG, or undefined when it names another (not sent). */
  private serviceKeyFor(target: Secondary): TsigKey | null | undefined {
    if (!target.key) return null;
    const tsig = this.options.serviceKey?.name === target.key ? this.options.serviceKey : undefined;
    // An unsigned NOTIFY would be dropped by a secondary that expects the key: say why instead.
    if (!tsig) this.options.onError?.(new Error(`SECONDARIES: ${target.host}:${target.port} expects the key ${target.key}, which is not NOTIFY_TSIG's`));
    return tsig;
  }

  private socket(host: string): dgram.Socket {
    const kind = net.isIPv6(host) ? 'udp6' : 'udp4';
    let socket = this.sockets.get(kind);
    if (!socket) {
      socket = dgram.createSocket(kind);
      socket.on('message', (msg) => this.answered(msg));
      socket.on('error', (err) => this.options.onError?.(err));
      socket.unref();
      this.sockets.set(kind, socket);
    }
    return socket;
  }

  /** Sends NOTIFY to one target, signed with `tsig` (null: unsigned; undefined: a key is wanted but missing, so nothing is sent). */
  private send(key: string, target: HostPort, soa: RRset, tsig: TsigKey | null | undefined): void {
    if (tsig === undefined) return;
    this.cancel(key);
    let id: number;
    do id = Math.floor(Math.random() * 0x10000);
    while (this.byId.has(id));
    let message = notifyMessage(id, soa);
    // Signed once: the retries within the next seconds stay well inside the fudge.
    if (tsig) message = signRequest(message, tsig).message;
    let tries = 0;
    const attempt = () => {
      if (tries++ >= this.attempts) return this.cancel(key);
      this.socket(target.host).send(message, target.port, target.host, (err) => {
        if (err) this.options.onError?.(err);
      });
      entry.timer = setTimeout(attempt, this.retryMs);
      entry.timer.unref();
    };
    const entry: Pending = { id, timer: setTimeout(() => {}, 0) };
    this.pending.set(key, entry);
    this.byId.set(id, key);
    attempt();
  }

  private answered(msg: Buffer): void {
    // A NOTIFY response: QR set, opcode NOTIFY (RFC 1996 §4.7); any RCODE ends the retries.
    if (msg.length < 12 || !(msg[2]! & 0x80) || ((msg[2]! >> 3) & 0x0f) !== 4) return;
    const key = this.byId.get(msg.readUInt16BE(0));
    if (key) this.cancel(key);
  }

  private cancel(key: string): void {
    const p = this.pending.get(key);
    if (!p) return;
    clearTimeout(p.timer);
    this.pending.delete(key);
    this.byId.delete(p.id);
  }

  close(): void {
    for (const key of [...this.pending.keys()]) this.cancel(key);
    for (const s of this.sockets.values()) s.close();
    this.sockets.clear();
  }
}
