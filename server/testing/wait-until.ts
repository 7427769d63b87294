/**
 * Waits for what a test expects to happen (a change arriving, a connection closed), with no time
 * bound in the assertion: how soon it happens is a benchmark's figure (npm run bench), which a
 * loaded machine would only make flaky here. The limit keeps a broken build from hanging the run,
 * and is generous for that reason; past it the test fails saying what never came.
 */
export async function waitUntil(what: string, check: () => boolean | Promise<boolean>, opts: { limitMs?: number; everyMs?: number } = {}): Promise<void> {
  const { limitMs = 30_000, everyMs = 50 } = opts;
  const deadline = Date.now() + limitMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`${what}: still not so after ${limitMs / 1000} s`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
