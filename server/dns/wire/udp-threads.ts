/**
 * DNS over UDP from several threads (DNS_THREADS > 1): each UDP thread (udp-thread.ts) owns a
 * socket on the DNS port (`reusePort`: the kernel spreads datagrams over the sockets by the
 * peers' addresses and ports) and does the system calls, which are most of an answer's time in
 * Node (one call per datagram each way); this thread answers every question from its one zone
 * index, taking questions off the threads' queues in shared memory and putting the answers on
 * theirs (datagram-ring.ts). The index is never copied: memory grows by each thread's isolate and
 * queues, not by the zones. RRL, cookies, analytics and the answer cache see every question, as
 * with one socket, because one handler answers them all.
 *
 * A UDP thread that stops (it cannot be stopped by a datagram: it reads none) is started again on
 * the same port and queues; the other threads' sockets keep the port meanwhile.
 */
import { Worker } from 'node:worker_threads';
import { countDnsResponse } from '../../counters';
import { Bell, DatagramRing, drainOnBell } from './datagram-ring';
import { UDP_RECEIVE_BUFFER, type UdpHandler } from './udp';
import { DROPPED, RECEIVED, SENT, type UdpThreadData, type UdpThreadMessage } from './udp-thread';

/** Questions waiting per thread: 256 KiB (about a socket's receive buffer) holds ~2,500 of a typical size. */
const QUESTION_BYTES = 256 << 10;
/** Answers waiting per thread: larger than the questions', as answers are. */
const ANSWER_BYTES = 1 << 20;
/** Questions taken from one thread's queue before the next thread's (fairness between sockets). */
const BATCH = 64;
/** Questions answered before this thread's other work (TCP, zone changes) gets a turn. */
const TURN = 1024;
/** A UDP thread that stops is started again after this long, doubling to 5 s while it keeps stopping. */
const RESTART_MS = 100;
const RESTART_MAX_MS = 5000;

/** What each thread has counted (datagrams received, dropped for a full queue, answers sent). */
export interface UdpThreadCounts {
  received: number;
  dropped: number;
  sent: number;
  /** Times the thread was started again after it stopped. */
  restarts: number;
}

export interface UdpThreads {
  port: number;
  counts(): UdpThreadCounts[];
  /** Stops one thread as a fault would (tests): it is started again. */
  fail(thread: number): Promise<void>;
  close(): Promise<void>;
}

interface Thread {
  data: UdpThreadData;
  questions: DatagramRing;
  answers: DatagramRing;
  answerBell: Bell;
  counts: Float64Array;
  worker: Worker | null;
  /** Its socket is bound (false from its start until it says so, and once it stopped). */
  listening: boolean;
  restarts: number;
  /** Answers put on its queue since its bell last rang. */
  unrung: boolean;
  /** Answers dropped for a full queue (this thread's count; the UDP thread counts questions). */
  answersDropped: number;
}

// Built (npm start), the UDP thread's bundle sits beside this one's (scripts/build-server.mjs); from
// the TypeScript, Node runs the file as it is.
const ENTRY = new URL(import.meta.url.endsWith('.ts') ? './udp-thread.ts' : './dns-udp.js', import.meta.url);

function start(thread: Thread): Promise<number> {
  const worker = new Worker(ENTRY, {
    workerData: { udpThread: thread.data },
    // It holds a socket and two queues' worth of datagrams in flight: a small heap is plenty.
    resourceLimits: { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 4 },
  });
  thread.worker = worker;
  thread.listening = false;
  return new Promise((resolve, reject) => {
    worker.once('message', (m: UdpThreadMessage) => {
      if (m.type !== 'bound') return reject(new Error(m.message));
      thread.listening = true;
      resolve(m.port);
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the UDP thread stopped before it listened (exit ${code})`)));
  });
}

/**
 * Starts `count` UDP threads on `host`:`port` (0: a free port, the same for all) answering with
 * `handle`; `onError` hears of a thread that stopped and was started again.
 */
export async function listenUdpThreads(host: string, port: number, count: number, handle: UdpHandler, onError: (err: unknown) => void): Promise<UdpThreads> {
  const questionBell = new Bell();
  const threads: Thread[] = [];
  let open = true;
  const type = host.includes(':') ? 'udp6' : 'udp4';
  for (let i = 0; i < count; i++) {
    const questions = new DatagramRing(QUESTION_BYTES);
    const answers = new DatagramRing(ANSWER_BYTES);
    const answerBell = new Bell();
    const counts = new SharedArrayBuffer(3 * Float64Array.BYTES_PER_ELEMENT);
    const data: UdpThreadData = {
      host,
      port,
      type,
      recvBufferSize: UDP_RECEIVE_BUFFER,
      questions: questions.buffer,
      questionBell: questionBell.buffer,
      answers: answers.buffer,
      answerBell: answerBell.buffer,
      counts,
    };
    threads.push({ data, questions, answers, answerBell, counts: new Float64Array(counts), worker: null, listening: false, restarts: 0, unrung: false, answersDropped: 0 });
  }

  const answer = (thread: Thread, port: number, address: string, out: Buffer | null): void => {
    if (!out) return;
    countDnsResponse('udp', out);
    if (thread.answers.push(port, address, out)) thread.unrung = true;
    else thread.answersDropped += 1;
  };
  const ringAll = () => {
    for (const thread of threads) {
      if (!thread.unrung) continue;
      thread.unrung = false;
      thread.answerBell.ring();
    }
  };
  // Round by round, up to BATCH questions of each thread, until none is left or TURN are answered.
  const drain = (): boolean => {
    let answered = 0;
    for (let more = true; more && answered < TURN;) {
      more = false;
      for (const thread of threads) {
        for (let n = 0; n < BATCH; n++) {
          const q = thread.questions.shift();
          if (!q) break;
          answered++;
          const later = (out: Buffer | null) => {
            answer(thread, q.port, q.address, out);
            ringAll();
          };
          answer(thread, q.port, q.address, handle(q.data, q.address, later));
          if (n === BATCH - 1) more = true;
        }
      }
    }
    ringAll();
    return answered >= TURN;
  };

  const supervise = (thread: Thread, index: number, delay = RESTART_MS): void => {
    thread.worker!.once('exit', (code) => {
      thread.worker = null;
      thread.listening = false;
      if (!open) return;
      thread.restarts += 1;
      onError(new Error(`DNS UDP thread ${index + 1} stopped (exit ${code}); starting it again`));
      setTimeout(() => {
        if (!open) return;
        start(thread).then(
          () => supervise(thread, index),
          (err) => {
            onError(err);
            supervise(thread, index, Math.min(delay * 2, RESTART_MAX_MS));
          },
        );
      }, delay).unref();
    });
  };

  try {
    // A port given: every thread binds it at once. Port 0 (the kernel picks, tests): the first thread
    // binds one, then the others the same.
    let bound = port;
    if (port === 0) {
      bound = await start(threads[0]!);
      for (const thread of threads) thread.data.port = bound;
      await Promise.all(threads.slice(1).map(start));
    } else await Promise.all(threads.map(start));
    threads.forEach((thread, i) => supervise(thread, i));
    void drainOnBell(questionBell, drain, () => open);
    return {
      port: bound,
      counts: () => threads.map((t) => ({ received: t.counts[RECEIVED]!, dropped: t.counts[DROPPED]! + t.answersDropped, sent: t.counts[SENT]!, restarts: t.restarts })),
      async fail(i) {
        const worker = threads[i]?.worker;
        if (!worker) return;
        const started = new Promise<void>((resolve) => {
          const wait = setInterval(() => {
            if (threads[i]!.listening && threads[i]!.worker !== worker) {
              clearInterval(wait);
              resolve();
            }
          }, 10);
        });
        await worker.terminate();
        await started;
      },
      async close() {
        open = false;
        questionBell.ring();
        await Promise.all(threads.map((t) => t.worker?.terminate()));
      },
    };
  } catch (err) {
    open = false;
    await Promise.all(threads.map((t) => t.worker?.terminate()));
    throw err;
  }
}
