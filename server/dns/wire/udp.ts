/** The UDP listener: one datagram in, at most one datagram out (RFC 1035 §4.2.1). */
import dgram from 'node:dgram';
import net from 'node:net';
import { countDnsResponse } from '../../counters';

/** One answer now, or null; `later` takes an answer that needs a write first (an UPDATE). */
export type UdpHandler = (msg: Buffer, address: string, later?: (out: Buffer | null) => void) => Buffer | null;

/**
 * Each UDP socket's receive buffer (SO_RCVBUF). The kernel's default (~208 KiB on Linux) holds
 * ~600 small questions: a burst larger than that while the thread answers is lost, as a resolver
 * sending many at once, or a flood, would see. NSD and Knot ask for larger buffers too; the kernel
 * caps the size at net.core.rmem_max without an error (docs/operations.md says how to raise it).
 */
export const UDP_RECEIVE_BUFFER = 4 << 20;

export function listenUdp(host: string, port: number, handle: UdpHandler, onError: (err: unknown) => void): Promise<dgram.Socket> {
  const socket = dgram.createSocket({ type: net.isIPv6(host) ? 'udp6' : 'udp4', reuseAddr: false, recvBufferSize: UDP_RECEIVE_BUFFER });
  socket.on('message', (msg, rinfo) => {
    const send = (out: Buffer | null) => {
      // No callback: send errors surface as 'error' events, and the hot path allocates less.
      if (out) {
        socket.send(out, rinfo.port, rinfo.address);
        countDnsResponse('udp', out);
      }
    };
    send(handle(msg, rinfo.address, send));
  });
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(port, host, () => {
      socket.off('error', reject);
      socket.on('error', onError);
      resolve(socket);
    });
  });
}
