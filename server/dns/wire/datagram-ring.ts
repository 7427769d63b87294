/**
 * A queue of datagrams in shared memory between two threads, one writing and one reading (no
 * locks: each side owns one offset and publishes it with an atomic store after the bytes it
 * covers). The UDP threads put the questions they receive on one and take their answers from
 * another (udp-threads.ts). Each datagram is kept with its peer's port and address:
 *
 *   u32 length of the datagram · u16 port · u8 length of the address · the address (ASCII) · the datagram
 *
 * padded to 4 octets. A datagram that would not fit before the end leaves a mark (length
 * 0xFFFFFFFF) and starts again at 0. The writer never lets its offset reach the reader's (one
 * stays free), so equal offsets mean empty. A full queue refuses the datagram: the writer drops
 * it, as a kernel drops what its socket buffer cannot hold.
 *
 * A reader sleeps on a `Bell` (one may serve several queues) that the writer rings after a batch.
 *
 * This module imports nothing, so the UDP thread loads it as it is (Node strips its types).
 */

const WRITE = 0;
const READ = 1;
const HEADER_BYTES = 8;
const WRAP = 0xffffffff;
/** Length, port, the address's length, the address (at most 45 characters: an IPv6 text). */
const MAX_ADDRESS = 64;

/** One datagram taken off a queue: its bytes are copied out, so the queue may reuse its room. */
export interface Datagram {
  port: number;
  address: string;
  data: Buffer;
}

export class DatagramRing {
  readonly buffer: SharedArrayBuffer;
  private readonly header: Int32Array;
  private readonly bytes: Buffer;
  private readonly capacity: number;

  /** A new queue of `capacity` octets (a multiple of 4), or the view of one made elsewhere. */
  constructor(from: number | SharedArrayBuffer) {
    this.buffer = typeof from === 'number' ? new SharedArrayBuffer(HEADER_BYTES + from) : from;
    this.capacity = this.buffer.byteLength - HEADER_BYTES;
    if (this.capacity <= 0 || this.capacity % 4 !== 0) throw new Error('a datagram queue holds a positive multiple of 4 octets');
    this.header = new Int32Array(this.buffer, 0, HEADER_BYTES / 4);
    this.bytes = Buffer.from(this.buffer, HEADER_BYTES, this.capacity);
  }

  /** Puts a datagram on the queue; false when it has no room (the datagram is dropped). */
  push(port: number, address: string, data: Uint8Array): boolean {
    const addressLength = address.length;
    if (addressLength > MAX_ADDRESS) return false;
    const size = (7 + addressLength + data.length + 3) & ~3;
    let at = this.header[WRITE]!;
    const read = Atomics.load(this.header, READ);
    if (at >= read) {
      // Free: from `at` to the end, and from 0 to just before `read`.
      if (this.capacity - at < size) {
        if (read <= size) return false;
        this.bytes.writeUInt32LE(WRAP, at);
        at = 0;
      }
    } else if (read - at <= size) return false;
    const b = this.bytes;
    b.writeUInt32LE(data.length, at);
    b.writeUInt16LE(port, at + 4);
    b[at + 6] = addressLength;
    b.write(address, at + 7, addressLength, 'latin1');
    b.set(data, at + 7 + addressLength);
    let next = at + size;
    if (next === this.capacity) next = 0;
    Atomics.store(this.header, WRITE, next);
    return true;
  }

  /** Takes the oldest datagram, or null when the queue is empty. */
  shift(): Datagram | null {
    let at = this.header[READ]!;
    if (at === Atomics.load(this.header, WRITE)) return null;
    const b = this.bytes;
    let length = b.readUInt32LE(at);
    if (length === WRAP) {
      at = 0;
      length = b.readUInt32LE(0);
    }
    const port = b.readUInt16LE(at + 4);
    const addressLength = b[at + 6]!;
    const start = at + 7 + addressLength;
    const address = b.toString('latin1', at + 7, start);
    const data = Buffer.allocUnsafe(length);
    b.copy(data, 0, start, start + length);
    let next = (start + length + 3) & ~3;
    if (next === this.capacity) next = 0;
    Atomics.store(this.header, READ, next);
    return { port, address, data };
  }
}

/**
 * What a reader waits on while its queues are empty: a count in shared memory that writers move
 * and wake it with. The reader notes the count, empties its queues, then waits for the count to
 * move past what it noted, so a datagram put on a queue meanwhile is never slept over.
 */
export class Bell {
  readonly buffer: SharedArrayBuffer;
  private readonly count: Int32Array;

  constructor(from?: SharedArrayBuffer) {
    this.buffer = from ?? new SharedArrayBuffer(4);
    this.count = new Int32Array(this.buffer, 0, 1);
  }

  /** The count now. */
  get rung(): number {
    return Atomics.load(this.count, 0);
  }

  /** Moves the count and wakes the reader. */
  ring(): void {
    Atomics.add(this.count, 0, 1);
    Atomics.notify(this.count, 0);
  }

  /** Resolves once the count has moved past `seen`; null when it already has. */
  after(seen: number): Promise<unknown> | null {
    const wait = Atomics.waitAsync(this.count, 0, seen);
    return wait.async ? wait.value : null;
  }
}

/**
 * Runs `drain` whenever the bell rings, until `running` says no (ring once more to stop it). When
 * more arrived while draining, or `drain` says it left some (it takes a bounded batch), the
 * thread's other work goes first, then `drain` again.
 */
export async function drainOnBell(bell: Bell, drain: () => boolean, running: () => boolean): Promise<void> {
  while (running()) {
    const seen = bell.rung;
    const left = drain();
    const wait = left ? null : bell.after(seen);
    await (wait ?? new Promise((next) => setImmediate(next)));
  }
}
