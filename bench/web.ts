/**
 * Dashboard figures: the SPA's initial JavaScript, gzipped, beside the 150 KB aim;
 * and, in headless Chromium against a real server, the time for the domain editor to show a
 * 10,000-record zone (beside fetching the same records with bare fetch() in the same page),
 * to filter it (beside the 100 ms a user perceives as instant), and the frame time while
 * scrolling through it (beside a 60 fps frame): wheel-like steps, and the worst case of
 * jumping a screenful of new rows every frame.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Page } from 'playwright';
import { CHROMIUM_PATH } from '../playwright.config';
import { cli, startServer, tempDataDir } from '../server/testing/server-process';
import { ratio, type Row } from './table';

const ROOT = path.resolve(import.meta.dirname, '..');
const AIM_KB = 150;
const RECORDS = 10_000;
const ZONE = 'big.bench.test';
const RUNS = 5;

const ms = (n: number) => `${n.toFixed(0)} ms`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Every script the first page load fetches (the entry and its modulepreloads), gzipped. */
export function initialJsGzipped(dist = path.join(ROOT, 'dist')): { bytes: number; files: number } {
  const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
  const srcs = [...html.matchAll(/<script[^>]+src="([^"]+\.js)"/g), ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+\.js)"/g)].map((m) => m[1]!);
  const bytes = srcs.reduce((sum, src) => sum + gzipSync(fs.readFileSync(path.join(dist, src.replace(/^\//, '')))).length, 0);
  return { bytes, files: srcs.length };
}

async function editorLoad(page: Page): Promise<number> {
  await page.goto('/domains');
  const t0 = Date.now();
  await page.goto(`/domains/${ZONE}`);
  await page
    .getByTestId('records-count')
    .filter({ hasText: `${(RECORDS + 2).toLocaleString('en')} records` })
    .waitFor();
  await page.getByTestId('records-scroll').getByRole('row').first().waitFor();
  return Date.now() - t0;
}

/** The same records through the BFF with bare fetch(): one page for the total, the rest 6 at a time. */
function rawFetch(page: Page): Promise<number> {
  return page.evaluate(async (zone) => {
    const t0 = performance.now();
    const url = (p: number) => `/bff/api/domains/${zone}/records?per_page=500&page=${p}`;
    const first = await fetch(url(1));
    const total = Number(first.headers.get('x-total-count'));
    await first.json();
    let next = 2;
    const pages = Math.ceil(total / 500);
    await Promise.all(
      Array.from({ length: 6 }, async () => {
        while (next <= pages) await (await fetch(url(next++))).json();
      }),
    );
    return performance.now() - t0;
  }, ZONE);
}

/** Types a filter and waits for the count to change: input to painted result. */
function filterTime(page: Page, text: string): Promise<number> {
  return page.evaluate(async (value) => {
    const input = [...document.querySelectorAll('label')].find((l) => l.textContent === 'Filter by name')!.control as HTMLInputElement;
    const count = document.querySelector('[data-testid="records-count"]')!;
    const before = count.textContent;
    const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
    const t0 = performance.now();
    setter.call(input, value);
    input.dispatchEvent(new Event('input', { bubbles: true }));
    await new Promise<void>((resolve) => {
      const tick = () => (count.textContent !== before ? resolve() : requestAnimationFrame(tick));
      requestAnimationFrame(tick);
    });
    // Wait for the frame that paints it.
    await new Promise((r) => requestAnimationFrame(() => r(null)));
    return performance.now() - t0;
  }, text);
}

/**
 * Scrolls the records `steps` times by `stepPx` (or, with stepPx 0, from top to bottom in
 * `steps` jumps), one step per frame as a wheel or a dragged scrollbar does; returns the p95
 * time between frames.
 */
function scrollFrames(page: Page, stepPx: number, steps: number): Promise<number> {
  return page.evaluate(
    async ([stepPx, steps]) => {
      const el = document.querySelector('[data-testid="records-scroll"]') as HTMLElement;
      el.scrollTop = 0;
      await new Promise((r) => requestAnimationFrame(() => r(null)));
      const step = stepPx || (el.scrollHeight - el.clientHeight) / steps;
      const frames: number[] = [];
      let last = performance.now();
      for (let i = 1; i <= steps; i++) {
        el.scrollTop = i * step;
        await new Promise((r) => requestAnimationFrame(() => r(null)));
        const now = performance.now();
        frames.push(now - last);
        last = now;
      }
      frames.sort((a, b) => a - b);
      return frames[Math.floor(frames.length * 0.95)]!;
    },
    [stepPx, steps] as const,
  );
}

export async function benchWeb(): Promise<Row[]> {
  const rows: Row[] = [];
  const build = spawnSync(process.execPath, [path.join(ROOT, 'scripts/build-web-if-needed.mjs')], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('vite build failed');
  const js = initialJsGzipped();
  rows.push({ name: `Dashboard: initial JS, gzipped (${js.files} files)`, value: `${(js.bytes / 1024).toFixed(1)} KB`, reference: `${AIM_KB} KB aim`, ratio: ratio(js.bytes, AIM_KB * 1024) });

  if (!fs.existsSync(CHROMIUM_PATH)) {
    rows.push({ name: 'Dashboard: browser timings', value: `no Chromium at ${CHROMIUM_PATH}`, reference: 'apt-get install chromium', ratio: '—' });
    return rows;
  }
  const dataDir = tempDataDir();
  const server = await startServer({ LOG_LEVEL: 'warn' }, dataDir);
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] });
  try {
    cli(dataDir, 'users', 'add', 'bench', '--password', 'bench-password');
    const seeded = spawnSync(process.execPath, ['--import', 'tsx', 'e2e/support/seed.ts', JSON.stringify({ user: 'bench', zone: { name: ZONE, records: RECORDS } })], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDir },
      encoding: 'utf8',
    });
    if (seeded.status !== 0) throw new Error(`seeding failed: ${seeded.stderr}`);
    const page = await browser.newPage({ baseURL: server.url, viewport: { width: 1280, height: 900 } });
    // tsx (esbuild keepNames) wraps named functions in __name(); the page must know it too.
    await page.addInitScript({ content: 'window.__name = (f) => f;' });
    await page.goto('/sign-in');
    await page.getByLabel('Username').fill('bench');
    await page.getByLabel('Password').fill('bench-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Domains', level: 1 }).waitFor();

    const loads: number[] = [];
    const fetches: number[] = [];
    const filters: number[] = [];
    const clears: number[] = [];
    const wheels: number[] = [];
    const jumps: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      loads.push(await editorLoad(page));
      fetches.push(await rawFetch(page));
      filters.push(await filterTime(page, `host0${i}99`));
      clears.push(await filterTime(page, ''));
      wheels.push(await scrollFrames(page, 400, 150));
      jumps.push(await scrollFrames(page, 0, 120));
    }
    const load = median(loads);
    const fetched = median(fetches);
    rows.push({ name: `Dashboard: editor shows ${RECORDS.toLocaleString('en')} records (median of ${RUNS})`, value: ms(load), reference: `${ms(fetched)} bare fetch`, ratio: ratio(load, fetched) });
    rows.push({ name: 'Dashboard: filter 10,000 records by name', value: ms(median(filters)), reference: '100 ms instant', ratio: ratio(median(filters), 100) });
    rows.push({ name: 'Dashboard: clear the filter (all rows back)', value: ms(median(clears)), reference: '100 ms instant', ratio: ratio(median(clears), 100) });
    const frame = (n: number) => `${n.toFixed(1)} ms`;
    rows.push({ name: 'Dashboard: scroll records 400 px a frame, p95 frame', value: frame(median(wheels)), reference: '16.7 ms (60 fps)', ratio: ratio(median(wheels), 1000 / 60) });
    rows.push({ name: 'Dashboard: jump through all 10,000 in 120 frames, p95', value: frame(median(jumps)), reference: '16.7 ms (60 fps)', ratio: ratio(median(jumps), 1000 / 60) });
  } finally {
    await browser.close();
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return rows;
}
