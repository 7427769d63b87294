/**
 * The dashboard screenshots in docs/images, made from the running product so they never drift
 * from it: builds the SPA and the server, starts the server on a temp DATA_DIR, fills
 * a demo account through the public API (zones, records, DNSSEC, a change to show in History),
 * signs in with Debian's Chromium and saves each page at 1280×800 (and the editor at 390×844).
 *
 *   npm run screenshots            # writes docs/images/*.png
 *   npm run screenshots -- <dir>   # writes elsewhere (the test of this script does)
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Page } from 'playwright';
import { buildServer } from './build-server.mjs';
import { cli, startServer, tempDataDir } from '../server/testing/server-process';

const ROOT = path.resolve(import.meta.dirname, '..');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Each screenshot: its file, what the reader sees, the page, and what must show before the shot. */
export const SHOTS = [
  { file: 'dashboard-domains.png', alt: 'The domains list', path: '/domains', ready: { role: 'heading', name: 'Domains' } },
  { file: 'dashboard-editor.png', alt: 'The domain editor: records first, then SOA settings and DNSSEC', path: '/domains/example.com', ready: { role: 'heading', name: 'example.com' } },
  { file: 'dashboard-history.png', alt: 'A zone’s history, each change revertible', path: '/domains/example.com/history', ready: { role: 'heading', name: 'example.com' } },
  { file: 'dashboard-editor-phone.png', alt: 'The domain editor on a 390×844 phone', path: '/domains/example.com', ready: { role: 'heading', name: 'example.com' }, phone: true },
] as const;

async function api(base: string, token: string, method: string, url: string, body?: unknown): Promise<void> {
  const res = await fetch(`${base}/api/v1${url}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
}

async function demo(base: string, token: string): Promise<void> {
  await api(base, token, 'POST', '/domains', { name: 'example.com' });
  const records: Array<[string, string, string, number?]> = [
    ['@', 'A', '192.0.2.10'],
    ['@', 'AAAA', '2001:db8::10'],
    ['www', 'CNAME', 'example.com.'],
    ['@', 'MX', '10 mail.example.com.'],
    ['mail', 'A', '192.0.2.25'],
    ['@', 'TXT', 'v=spf1 mx -all'],
    ['_dmarc', 'TXT', 'v=DMARC1; p=reject; rua=mailto:dmarc@example.com'],
    ['@', 'CAA', '0 issue "letsencrypt.org"'],
  ];
  for (const [name, record_type, content] of records) await api(base, token, 'POST', '/domains/example.com/records', { name, record_type, content });
  await api(base, token, 'PUT', '/domains/example.com', { dnssec_enabled: true });
  for (const name of ['example.net', 'example.org', 'shop.example']) await api(base, token, 'POST', '/domains', { name });
}

async function shoot(page: Page, base: string, out: string): Promise<string[]> {
  const written: string[] = [];
  for (const shot of SHOTS) {
    await page.setViewportSize('phone' in shot ? { width: 390, height: 844 } : { width: 1280, height: 800 });
    await page.goto(`${base}${shot.path}`);
    await page.getByRole(shot.ready.role, { name: shot.ready.name, exact: true }).first().waitFor();
    await page.waitForLoadState('networkidle');
    const file = path.join(out, shot.file);
    await page.screenshot({ path: file });
    written.push(file);
  }
  return written;
}

export async function makeScreenshots(out = path.join(ROOT, 'docs', 'images')): Promise<string[]> {
  const web = spawnSync(process.execPath, [path.join(ROOT, 'scripts/build-web-if-needed.mjs')], { cwd: ROOT, stdio: 'inherit' });
  if (web.status !== 0) throw new Error('building the SPA failed');
  await buildServer();
  const dataDir = tempDataDir();
  const server = await startServer({ DNS_PORT: '0' }, dataDir);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  try {
    const password = 'screenshots-demo-pw';
    cli(dataDir, 'users', 'add', 'alice', '--password', password);
    const token = cli(dataDir, 'tokens', 'create', 'alice', '--label', 'screenshots').at(-1)!;
    await demo(server.url, token);
    const page = await browser.newPage({ colorScheme: 'light' });
    await page.goto(`${server.url}/sign-in`);
    await page.getByLabel('Username').fill('alice');
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Domains', level: 1 }).waitFor();
    fs.mkdirSync(out, { recursive: true });
    return await shoot(page, server.url, out);
  } finally {
    await browser.close();
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const files = await makeScreenshots(process.argv[2] ? path.resolve(process.argv[2]) : undefined);
  for (const f of files) console.log(path.relative(process.cwd(), f));
}
