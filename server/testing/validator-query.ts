/**
 * One question to the chain's validating resolver (bind-chain.ts), in-process: a datagram with RD,
 * AD and the DO bit, tried three times. What the rollover tests' probe and the CDS scanner ask
 * instead of starting `delv` each time (a process costs ~0.1 s of CPU on a small machine).
 */
import dgram from 'node:dgram';
import packet from 'dns-packet';
import type { HostPort } from './delv';

/** A decoded answer, with the status dns-packet gives it (its types leave `rcode` out). */
export type Answer = packet.DecodedPacket & { rcode?: string };

/** How long one try waits for V's answer, and how many tries a question gets before it counts as a time-out. */
const TRY_MS = 4_000;
const TRIES = 3;

/** V's answer to one question, or null when it gave none in TRIES tries. */
export async function askValidator(server: HostPort, name: string, type: string): Promise<Answer | null> {
  const socket = dgram.createSocket('udp4');
  try {
    for (let attempt = 0; attempt < TRIES; attempt++) {
      const id = Math.floor(Math.random() * 65536);
      const query = packet.encode({
        type: 'query',
        id,
        flags: packet.RECURSION_DESIRED | packet.AUTHENTIC_DATA,
        questions: [{ name, type: type as packet.RecordType }],
        additionals: [{ type: 'OPT', name: '.', udpPayloadSize: 4096, flags: packet.DNSSEC_OK } as packet.Answer],
      });
      const answer = await new Promise<Answer | null>((resolve) => {
        const late = setTimeout(() => done(null), TRY_MS);
        const onMessage = (msg: Buffer) => {
          try {
            const p = packet.decode(msg) as Answer;
            if (p.id === id) done(p);
          } catch {
            // Not a DNS message: wait for the real answer.
          }
        };
        const done = (p: Answer | null) => {
          clearTimeout(late);
          socket.off('message', onMessage);
          resolve(p);
        };
        socket.on('message', onMessage);
        socket.send(query, server.port, server.host);
      });
      if (answer) return answer;
    }
    return null;
  } finally {
    socket.close();
  }
}

/** V's answer in a line or two: status, flags, the answer's records and any extended DNS error. */
export function summary(p: Answer | null): string {
  if (!p) return `no answer from the validator in ${TRIES} tries of ${TRY_MS / 1000} s`;
  const flags = [p.flag_aa && 'aa', p.flag_rd && 'rd', p.flag_ra && 'ra', p.flag_ad && 'ad', p.flag_cd && 'cd'].filter(Boolean).join(' ');
  const answers = (p.answers ?? []).map((a) => `${a.name} ${a.type}`).join(', ');
  const opt = (p.additionals ?? []).find((a) => a.type === 'OPT') as { options?: Array<{ code: number; data?: Buffer }> } | undefined;
  const ede = (opt?.options ?? [])
    .filter((o) => o.code === 15 && o.data && o.data.length >= 2)
    .map((o) => `EDE ${o.data!.readUInt16BE(0)}${o.data!.length > 2 ? ` (${o.data!.subarray(2).toString()})` : ''}`);
  return `validator: ${p.rcode} flags: ${flags}; answer: ${answers || 'none'}${ede.length ? `; ${ede.join(', ')}` : ''}`;
}

/** Proven: NOERROR or NXDOMAIN with AD set (data, or its absence, validated from the root's key). */
export const proven = (p: Answer | null) => p !== null && (p.rcode === 'NOERROR' || p.rcode === 'NXDOMAIN') && p.flag_ad === true;

/** The CDS records of a proven answer, as `dsRecordsIn` (delv.ts) writes them: "tag algorithm digest-type DIGEST". */
export function cdsRecordsOf(p: Answer): string[] {
  const out = new Set<string>();
  for (const a of p.answers ?? []) {
    if (a.type !== 'CDS') continue;
    const rdata = (a as { data: Buffer }).data;
    if (!Buffer.isBuffer(rdata) || rdata.length < 5) continue;
    out.add(`${rdata.readUInt16BE(0)} ${rdata[2]} ${rdata[3]} ${rdata.subarray(4).toString('hex').toUpperCase()}`);
  }
  return [...out].sort();
}
