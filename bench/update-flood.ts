/**
 * A signed-UPDATE flood from one TSIG key (bench/defences.ts runs it as a process of its own):
 * 32 UDP clients, each sending the next update as soon as the last is answered, for `seconds`.
 * Arguments: DNS port, the key as `tsig create` prints it (algorithm:name:secret), seconds.
 * Prints how many updates were sent.
 */
import dgram from 'node:dgram';
import packet from 'dns-packet';
import { signRequest } from '../server/dns/tsig/tsig';
import { ZONE } from './dns';

const [port, keyText, seconds] = process.argv.slice(2);
const [, name, secret] = keyText!.split(':');
const key = { name: name!, algorithm: 'hmac-sha256' as const, secret: Buffer.from(secret!, 'base64') };
const until = Date.now() + Number(seconds) * 1000;
let sent = 0;

await Promise.all(
  Array.from({ length: 32 }, async (_, tag) => {
    const sock = dgram.createSocket('udp4');
    let n = 0;
    while (Date.now() < until) {
      const id = (tag * 2048 + n) & 0xffff;
      const msg = Buffer.from(
        packet.encode({
          id,
          type: 'query',
          opcode: 'UPDATE',
          flags: 5 << 11,
          questions: [{ name: ZONE, type: 'SOA', class: 'IN' }],
          authorities: [{ name: `f${tag}-${n++}.${ZONE}`, type: 'TXT', class: 'IN', ttl: 60, data: ['flood'] }],
        } as unknown as packet.Packet),
      );
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => (sock.off('message', on), resolve()), 1000);
        const on = (m: Buffer) => {
          if (m.readUInt16BE(0) !== id) return;
          clearTimeout(timer);
          sock.off('message', on);
          resolve();
        };
        sock.on('message', on);
        sock.send(signRequest(msg, key).message, Number(port), '127.0.0.1');
        sent++;
      });
    }
    sock.close();
  }),
);
process.stdout.write(`${sent}\n`);
process.exit(0);
