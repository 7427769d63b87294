/**
 * The UDP socket asks the kernel for a large receive buffer: a burst of questions that arrives
 * while the thread answers others waits there instead of being dropped by the kernel.
 */
import dgram from 'node:dgram';
import fs from 'node:fs';
import { afterAll, expect, it } from 'vitest';
import { listenUdp, UDP_RECEIVE_BUFFER } from './udp';

const sockets: dgram.Socket[] = [];
afterAll(() => sockets.forEach((s) => s.close()));

/** Linux grants twice the size asked for (its bookkeeping), capped at net.core.rmem_max. */
const granted = (asked: number) => 2 * Math.min(asked, Number(fs.readFileSync('/proc/sys/net/core/rmem_max', 'utf8')));

it('asks for a receive buffer of 4 MiB (as far as the kernel allows), and answers a burst of 300 whole', async () => {
  const server = await listenUdp(
    '127.0.0.1',
    0,
    (msg) => msg,
    () => {},
  );
  sockets.push(server);
  expect(UDP_RECEIVE_BUFFER).toBe(4 << 20);
  expect(server.getRecvBufferSize()).toBe(granted(UDP_RECEIVE_BUFFER));

  // 300 datagrams sent at once, each echoed back: every one comes back.
  const client = dgram.createSocket({ type: 'udp4', recvBufferSize: UDP_RECEIVE_BUFFER });
  sockets.push(client);
  await new Promise<void>((r) => client.bind(0, '127.0.0.1', r));
  const back = new Set<number>();
  client.on('message', (m) => back.add(m.readUInt16BE(0)));
  for (let i = 0; i < 300; i++) client.send(Buffer.from([i >> 8, i & 255, 0, 0]), server.address().port, '127.0.0.1');
  await expect.poll(() => back.size, { timeout: 10_000 }).toBe(300);
});
