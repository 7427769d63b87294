/**
 * Playwright fixtures over this run's server: `baseURL`, a fresh user per test (made with
 * the admin CLI) with an API token to check what the dashboard did through the public API,
 * and a guard on every test that no response the browser receives carries an API token (save
 * the one a user creates on purpose, see token-leaks.ts) and that the page runs without CSP
 * violations or uncaught errors.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { expect, test as base, type Page } from '@playwright/test';
import { cli as runCli } from '../../server/testing/server-process';
import { ApiClient } from './api-client';
import { serverInfo, type ServerInfo } from './server-info';
import { bodyLeak, headerLeak } from './token-leaks';

export { TOKEN_PATTERN } from './token-leaks';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** Runs the admin CLI against this run's DATA_DIR; returns its stdout lines. */
export function cli(server: ServerInfo, ...args: string[]): string[] {
  return runCli(server.dataDir, ...args);
}

/** Writes many rows at once through the services (see seed.ts). */
export function seed(server: ServerInfo, data: object): void {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'e2e/support/seed.ts', JSON.stringify(data)], { cwd: ROOT, env: { ...process.env, DATA_DIR: server.dataDir }, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`seed failed (${r.status}): ${r.stderr}`);
}

export interface TestUser {
  username: string;
  password: string;
  token: string;
  /** The public API as this user, with the CLI-minted token. */
  api: ApiClient;
}

export async function signIn(page: Page, user: { username: string; password: string }): Promise<void> {
  await page.getByLabel('Username').fill(user.username);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

type Fixtures = { server: ServerInfo; user: TestUser; signedIn: Page; tokenGuard: void };

export const test = base.extend<Fixtures>({
  server: async ({}, use) => use(serverInfo()),
  baseURL: async ({ server }, use) => use(server.url),

  user: async ({ server }, use) => {
    const username = `u${randomBytes(4).toString('hex')}`;
    const password = `pw-${randomBytes(6).toString('hex')}`;
    cli(server, 'users', 'add', username, '--password', password);
    const token = cli(server, 'tokens', 'create', username, '--label', 'e2e checks').at(-1)!;
    await use({ username, password, token, api: new ApiClient(server.url, token) });
  },

  /** A page signed in as `user`, on the domains page. */
  signedIn: async ({ page, user }, use) => {
    await page.goto('/sign-in');
    await signIn(page, user);
    await expect(page.getByRole('heading', { name: 'Domains', level: 1 })).toBeVisible();
    await use(page);
  },

  tokenGuard: [
    async ({ page }, use) => {
      const leaks: string[] = [];
      const reads: Promise<void>[] = [];
      page.on('response', (res) => {
        const seen = { url: res.url(), method: res.request().method(), status: res.status() };
        const inHeaders = headerLeak(seen, res.headers());
        if (inHeaders) leaks.push(inHeaders);
        const body = res
          .text()
          .then((text) => {
            const inBody = bodyLeak(seen, text);
            if (inBody) leaks.push(inBody);
          })
          .catch(() => {}); // redirects and aborted loads have no body
        // A body Chromium never finishes (the page went away) must not hang the test.
        reads.push(Promise.race([body, new Promise<void>((r) => setTimeout(r, 2000))]));
      });
      // The page must run under its CSP without violations, and without uncaught errors.
      const problems: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error' && /Content Security Policy|Refused to/i.test(m.text())) problems.push(m.text());
      });
      page.on('pageerror', (e) => problems.push(`uncaught: ${e.message}`));
      await use();
      await Promise.all(reads);
      expect(leaks, 'responses to the browser that contain an API token').toEqual([]);
      expect(problems, 'CSP violations and uncaught errors in the page').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/**
 * Saves a full-page screenshot to e2e/screenshots/<name>.png (gitignored) for a human to look at;
 * `fullPage: false` for the window only (a page of 10,000 rows is too tall to capture).
 */
export async function screenshot(page: Page, name: string, { fullPage = true } = {}): Promise<void> {
  // A sticky top bar would be painted mid-page in a full-page capture.
  const unstick = (position: string) => page.evaluate((p) => document.querySelector<HTMLElement>('.topbar')?.style.setProperty('position', p), position);
  await unstick('static');
  await page.screenshot({ path: path.join(ROOT, 'e2e', 'screenshots', `${name}.png`), fullPage });
  await unstick('');
}
