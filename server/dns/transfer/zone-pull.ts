/**
 * What a secondary zone asks of its primary: the SOA serial (over UDP, TCP when truncated) and the
 * zone's changes since the serial it holds by IXFR (RFC 1995), which the primary may answer with
 * the whole zone (AXFR form, RFC 5936 §4.1). Everything read is bounded: the records (the zone's
 * cap), the time a transfer may take and may stall, and names, which must lie inside the zone.
 * With a key, the query is signed and every message of the answer verified (RFC 8945 §5.3.1).
 */
import dgram from 'node:dgram';
import net from 'node:net';
import packet from 'dns-packet';
import { APEX, normalizeRecordName } from '../../core/domain-name';
import { RECORD_TYPE_BY_CODE } from '../../core/record-types';
import { serialAtOrAfter } from '../../core/soa';
import type { HostPort } from '../../core/host-port';
import type { Pulled, PullClient, PulledRecord, PulledSoa, PulledStep, PullKey, PullLimits } from '../../services/secondary/pull-types';
import { normalizeTsigAlgorithm } from '../../core/tsig-rules';
import type { TsigKey } from '../tsig/tsig';
import { transferSigner } from './transfer-signer';
import { answers, at, soaOf, tcpExchange, TransferError, type TransferSigner, type WireRecord } from './tcp-exchange';

export type Primary = HostPort;

const T_SOA = 6;

/** A query for the zone, with (IXFR) the held SOA in the authority section (RFC 1995 §3). */
function query(zone: string, type: 'SOA' | 'IXFR' | 'AXFR', held?: PulledSoa): Buffer {
  const authorities = held
    ? [
        {
          type: 'SOA' as const,
          name: zone,
          ttl: held.ttl,
          data: { mname: held.mname, rname: held.rname, serial: held.serial, refresh: held.refresh, retry: held.retry, expire: held.expire, minimum: held.minimum },
        },
      ]
    : [];
  return packet.encode({ type: 'query', id: Math.floor(Math.random() * 65535), questions: [{ type, name: zone, class: 'IN' }], authorities });
}

/** The primary's SOA: over UDP, again over TCP when the answer is truncated. */
export async function primarySoa(primary: Primary, zone: string, signer?: TransferSigner, timeoutMs = 5000): Promise<PulledSoa> {
  const wire = signer ? signer.sign(query(zone, 'SOA')) : query(zone, 'SOA');
  let msg = await udpExchange(primary, wire, timeoutMs);
  if (msg[2]! & 0x02) {
    const tcpWire = signer ? signer.sign(query(zone, 'SOA')) : query(zone, 'SOA');
    msg = (await tcpExchange(primary, tcpWire, { timeoutMs }, () => true))[0]!;
  }
  signer?.verify(msg, 0);
  signer?.finish?.();
  const soa = answers(msg, 'SOA query').find((r) => r.type === T_SOA && r.owner === zone);
  if (!soa) throw new TransferError(`${at(primary)} answered no SOA for ${zone}: it is not authoritative for the zone`);
  if ((msg[2]! & 0x04) === 0) throw new TransferError(`${at(primary)} is not authoritative for ${zone} (its answer has no AA bit)`);
  return soaOf(soa);
}

function udpExchange(primary: Primary, wire: Buffer, timeoutMs: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = dgram.createSocket(net.isIPv6(primary.host) ? 'udp6' : 'udp4');
    const id = wire.readUInt16BE(0);
    let tries = 0;
    const send = () => {
      if (tries++ >= 3) return done(new TransferError(`${at(primary)} did not answer the SOA query`));
      socket.send(wire, primary.port, primary.host, (err) => err && done(new TransferError(`cannot reach ${at(primary)}: ${err.message}`)));
    };
    const timer = setInterval(send, Math.max(200, Math.floor(timeoutMs / 3)));
    const done = (err: Error | null, msg?: Buffer) => {
      clearInterval(timer);
      socket.close();
      if (err) reject(err);
      else resolve(msg!);
    };
    socket.on('error', (e) => done(new TransferError(`cannot reach ${at(primary)}: ${e.message}`)));
    // Only an answer to this query, from the primary asked: anything else is ignored.
    socket.on('message', (msg, rinfo) => {
      if (msg.length >= 12 && msg.readUInt16BE(0) === id && msg[2]! & 0x80 && rinfo.port === primary.port) done(null, msg);
    });
    send();
  });
}

/**
 * Reads the records of a transfer into the shapes a secondary applies, in order: the SOA records
 * are the sequence's markers; every other record becomes a PulledRecord (types zonedeck does not
 * carry are counted in `skipped`).
 */
class TransferReader {
  readonly soas: PulledSoa[] = [];
  /** Each record with the number of SOAs seen before it. */
  readonly records: { record: PulledRecord; soasBefore: number }[] = [];
  skipped = 0;
  count = 0;

  /**
   * Which form the answer takes, known at its second record (RFC 1995 §4): a SOA of another serial
   * there begins the changes of an IXFR; anything else is the whole zone.
   */
  form: 'axfr' | 'ixfr' | undefined;

  constructor(
    private readonly zone: string,
    private readonly limits: PullLimits,
    private readonly primary: Primary,
    private readonly incremental: boolean,
  ) {}

  /** Whether the answer is complete, after a SOA. */
  complete(): boolean {
    const { soas } = this;
    const n = soas.length;
    const newest = soas[0]!.serial;
    if (this.form === 'axfr') {
      if (n !== 2) return false;
      if (soas[1]!.serial !== newest) throw new TransferError(`${at(this.primary)} ended the transfer of ${this.zone} with serial ${soas[1]!.serial}, not ${newest}`);
      return true;
    }
    // IXFR: SOA(new), then (SOA(from) removed… SOA(to) added…)*, then SOA(new) after a step that reached it.
    return n >= 4 && n % 2 === 0 && soas[n - 1]!.serial === newest && soas[n - 2]!.serial === newest;
  }

  /** Takes one record; true when it is a SOA. */
  take(wire: WireRecord): boolean {
    // Names compare without regard to case (RFC 4343); they are stored in lower case.
    const rec = { ...wire, owner: wire.owner.toLowerCase() };
    if (++this.count === 2) this.form = this.incremental && rec.type === T_SOA && rec.owner === this.zone && soaOf(rec).serial !== this.soas[0]!.serial ? 'ixfr' : 'axfr';
    // Each record counts, the SOA markers of an IXFR too: a primary cannot stream without end.
    if (this.count > this.limits.maxRecords * 2 + 16) throw new TransferError(`${at(this.primary)} sent more than ${this.limits.maxRecords} records (MAX_RECORDS_PER_ZONE) for ${this.zone}`);
    if (rec.owner !== this.zone && !rec.owner.endsWith(`.${this.zone}`)) throw new TransferError(`${at(this.primary)} sent ${rec.owner}, a name outside ${this.zone}`);
    if (rec.type === T_SOA) {
      if (rec.owner !== this.zone) throw new TransferError(`${at(this.primary)} sent a SOA at ${rec.owner}, below the apex of ${this.zone}`);
      this.soas.push(soaOf(rec));
      return true;
    }
    const def = RECORD_TYPE_BY_CODE.get(rec.type);
    if (!def || def.synthetic) {
      this.skipped++;
      return false;
    }
    const name = rec.owner === this.zone ? APEX : normalizeRecordName(`${rec.owner}.`, this.zone);
    let content: string;
    try {
      content = def.fromWire(rec.rdata, { message: rec.message, offset: rec.offset });
    } catch (e) {
      throw new TransferError(`${at(this.primary)} sent a ${def.type} record at ${rec.owner} that cannot be read: ${(e as Error).message}`);
    }
    this.records.push({ record: { name, record_type: def.type, ttl: rec.ttl, content }, soasBefore: this.soas.length });
    return false;
  }
}

/**
 * The zone's changes since `held` (IXFR), or the whole zone (AXFR, when nothing is held or the
 * primary answers IXFR with the whole zone). `ixfr: false` asks for AXFR straight away.
 */
export async function pullZone(primary: Primary, zone: string, held: PulledSoa | null, limits: PullLimits, signer?: TransferSigner, ixfr = true): Promise<Pulled> {
  const incremental = ixfr && held !== null;
  const wire = query(zone, incremental ? 'IXFR' : 'AXFR', incremental ? held! : undefined);
  const signed = signer ? signer.sign(wire) : wire;
  const reader = new TransferReader(zone, limits, primary, incremental);
  await tcpExchange(primary, signed, limits, (msg, index) => {
    signer?.verify(msg, index);
    const recs = answers(msg, incremental ? 'IXFR' : 'AXFR');
    let done = false;
    for (const rec of recs) {
      if (done) throw new TransferError(`${at(primary)} sent records after the end of the transfer`);
      if (reader.count === 0 && rec.type !== T_SOA) throw new TransferError(`${at(primary)} did not begin the transfer with the SOA of ${zone}`);
      if (reader.take(rec)) done = reader.complete();
    }
    // RFC 1995 §2: a single SOA (the held serial, or older) says the zone is current.
    if (!done && index === 0 && recs.length === 1 && reader.soas.length === 1 && held && serialAtOrAfter(held.serial, reader.soas[0]!.serial)) done = true;
    if (done) signer?.finish?.();
    return done;
  });
  return shape(reader, held, zone, primary);
}

/** The answer read, as what the secondary does with it. */
function shape(reader: TransferReader, held: PulledSoa | null, zone: string, primary: Primary): Pulled {
  const { soas, records, skipped } = reader;
  const soa = soas[0]!;
  if (soas.length === 1) return { kind: 'current', soa };
  if (reader.form === 'axfr') return { kind: 'full', soa, records: records.map((r) => r.record), skipped };
  if (soas[1]!.serial !== held!.serial) throw new TransferError(`${at(primary)} sent changes of ${zone} from serial ${soas[1]!.serial}, not ${held!.serial}`);
  const steps: PulledStep[] = [];
  // SOAs 1, 3, 5 … open the removals of a step, 2, 4, 6 … its additions; the last closes the answer.
  for (let i = 1; i + 1 <= soas.length - 2; i += 2) {
    const step: PulledStep = { from: soas[i]!.serial, to: soas[i + 1]!.serial, removed: [], added: [] };
    for (const r of records) {
      if (r.soasBefore === i + 1) step.removed.push(r.record);
      else if (r.soasBefore === i + 2) step.added.push(r.record);
    }
    steps.push(step);
  }
  return { kind: 'incremental', soa, steps, skipped };
}

/** The client a secondary's refresh uses (handed to it by the composition root), signing with the zone's key when it has one. */
export const pullClient: PullClient = {
  soa: (primary, zone, key) => primarySoa(primary, zone, key && transferSigner(tsigKey(key))),
  pull: (primary, zone, held, limits, key, ixfr) => pullZone(primary, zone, held, limits, key && transferSigner(tsigKey(key)), ixfr),
};

function tsigKey(key: PullKey): TsigKey {
  return { name: key.name, algorithm: normalizeTsigAlgorithm(key.algorithm), secret: key.secret };
}
