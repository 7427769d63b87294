/**
 * A test seam that steps the wall clock of a running server, as NTP or a resumed VM would: the
 * server is started with `--import` of this file and ZONEDECK_TEST_CLOCK_FILE naming a file that
 * holds an offset in milliseconds (startServer's `clockFile` option does both). Every thread that
 * loads it (the main one and, through the execArgv a Worker inherits, the DNS thread) replaces
 * `Date` so that `Date.now()`, `new Date()` and `Date()` read the real time plus that offset;
 * `performance.now()` and timers go on untouched, as the monotonic clock does through a real step.
 * The file is polled (fs.watchFile), so a read of the time costs one addition; each thread writes
 * `<file>.ack-<pid>-<thread>` with the offset it applied, which `stepClock` waits for.
 *
 * Node runs this file itself (type stripping): node: imports only, nothing to compile away.
 * Production code never imports it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { threadId } from 'node:worker_threads';

const ENV = 'ZONEDECK_TEST_CLOCK_FILE';
const POLL_MS = 20;

const readOffset = (file: string): number => {
  try {
    const n = Number(fs.readFileSync(file, 'utf8').trim());
    return Number.isFinite(n) ? n : 0;
  } catch {
    return 0;
  }
};

/** Installs the stepped Date in this thread (done on import when the server runs with the seam). */
function install(file: string): void {
  const RealDate = Date;
  const realNow = RealDate.now;
  let offset = readOffset(file);
  const ack = `${file}.ack-${process.pid}-${threadId}`;
  const acknowledge = () => fs.writeFileSync(ack, String(offset));

  // A function rather than a class: `Date()` without `new` must keep working (it returns a string).
  function SteppedDate(this: unknown, ...args: unknown[]): unknown {
    if (!new.target) return new RealDate(realNow() + offset).toString();
    return Reflect.construct(RealDate, args.length === 0 ? [realNow() + offset] : args, new.target);
  }
  // Instances are real Dates (instanceof Date holds); parse, UTC and the rest come from Date.
  SteppedDate.prototype = RealDate.prototype;
  Object.setPrototypeOf(SteppedDate, RealDate);
  Object.defineProperty(SteppedDate, 'now', { value: () => realNow() + offset, writable: true, configurable: true });
  globalThis.Date = SteppedDate as unknown as DateConstructor;

  fs.watchFile(file, { interval: POLL_MS, persistent: false }, () => {
    offset = readOffset(file);
    acknowledge();
  });
  acknowledge();
  process.once('exit', () => fs.rmSync(ack, { force: true }));
}

const file = process.env[ENV];
if (file) install(file);

/** The environment and node flags that start a server with the seam reading `clockFile`. */
export function clockSeam(clockFile: string): { env: Record<string, string>; nodeArgs: string[] } {
  if (!fs.existsSync(clockFile)) fs.writeFileSync(clockFile, '0');
  return { env: { [ENV]: clockFile }, nodeArgs: ['--import', new URL(import.meta.url).href] };
}

/**
 * Sets the server's clock `offsetMs` from real time (0: back to real time) and waits until every
 * thread of it has applied the offset; returns how many threads did.
 */
export async function stepClock(clockFile: string, offsetMs: number, limitMs = 10_000): Promise<number> {
  fs.writeFileSync(clockFile, String(offsetMs));
  const dir = path.dirname(clockFile);
  const prefix = `${path.basename(clockFile)}.ack-`;
  const until = performance.now() + limitMs;
  for (;;) {
    const acks = fs.readdirSync(dir).filter((f) => f.startsWith(prefix));
    const applied = acks.filter((f) => readOffset(path.join(dir, f)) === offsetMs);
    if (acks.length > 0 && applied.length === acks.length) return acks.length;
    if (performance.now() > until) throw new Error(`the server's threads did not take the clock step: ${applied.length} of ${acks.length}`);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}
