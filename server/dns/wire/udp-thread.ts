/**
 * One UDP thread (udp-threads.ts starts DNS_THREADS of them): its own socket on the DNS port
 * (`reusePort`, so the kernel spreads datagrams over the threads' sockets by their addresses), the
 * questions it receives put on its queue to the answering thread, and the answers it gets back
 * sent. It reads nothing of a datagram's content, so no datagram can make it fail.
 * It imports only Node's modules and the queue, and runs as written (Node strips the types).
 */
import dgram from 'node:dgram';
import { parentPort, workerData } from 'node:worker_threads';
import { Bell, DatagramRing, drainOnBell } from './datagram-ring.ts';

/** What the answering thread hands a UDP thread (shared memory crosses as it is). */
export interface UdpThreadData {
  host: string;
  port: number;
  type: 'udp4' | 'udp6';
  /** The socket's receive buffer (SO_RCVBUF), as the one-socket listener asks for. */
  recvBufferSize: number;
  /** Questions, this thread → the answering thread, and the bell all UDP threads ring. */
  questions: SharedArrayBuffer;
  questionBell: SharedArrayBuffer;
  /** Answers, the answering thread → this thread, and this thread's bell. */
  answers: SharedArrayBuffer;
  answerBell: SharedArrayBuffer;
  /** Counts this thread keeps: datagrams received, dropped for a full queue, answers sent. */
  counts: SharedArrayBuffer;
}

export type UdpThreadMessage = { type: 'bound'; port: number } | { type: 'failed'; message: string };

/** The indexes of `UdpThreadData.counts`. */
export const RECEIVED = 0;
export const DROPPED = 1;
export const SENT = 2;

function main(data: UdpThreadData): void {
  const post = (m: UdpThreadMessage) => parentPort!.postMessage(m);
  const questions = new DatagramRing(data.questions);
  const answers = new DatagramRing(data.answers);
  const questionBell = new Bell(data.questionBell);
  const answerBell = new Bell(data.answerBell);
  const counts = new Float64Array(data.counts);
  const socket = dgram.createSocket({ type: data.type, reuseAddr: false, reusePort: true, recvBufferSize: data.recvBufferSize });
  // The bell is rung once per turn of the loop, after every datagram that turn read.
  let ringing = false;
  const ring = () => {
    ringing = false;
    questionBell.ring();
  };
  socket.on('message', (msg, rinfo) => {
    counts[RECEIVED]! += 1;
    if (!questions.push(rinfo.port, rinfo.address, msg)) counts[DROPPED]! += 1;
    else if (!ringing) {
      ringing = true;
      setImmediate(ring);
    }
  });
  const send = () => {
    for (let answer = answers.shift(); answer; answer = answers.shift()) {
      socket.send(answer.data, answer.port, answer.address);
      counts[SENT]! += 1;
    }
    return false;
  };
  const failed = (err: Error) => post({ type: 'failed', message: err.message });
  socket.once('error', failed);
  socket.once('listening', () => {
    socket.off('error', failed);
    // Send errors (an unreachable peer) are the peer's; the socket goes on.
    socket.on('error', () => {});
    post({ type: 'bound', port: socket.address().port });
    // It runs until the thread is stopped (terminated: the socket closes with it).
    void drainOnBell(answerBell, send, () => true);
  });
  socket.bind(data.port, data.host);
}

if (parentPort && (workerData as { udpThread?: UdpThreadData } | null)?.udpThread) main((workerData as { udpThread: UdpThreadData }).udpThread);
