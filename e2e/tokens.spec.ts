import { bodyLeak, headerLeak } from './support/token-leaks';
import { expect, screenshot, test } from './support/fixtures';

const SECRET = /^zd_[A-Za-z0-9_-]{32}$/;

test('a token created on the tokens page is shown once, works against the API, and stops working when revoked there', async ({ signedIn: page, server, user }) => {
  await page.getByRole('link', { name: 'API tokens' }).click();
  await expect(page.getByRole('heading', { name: 'API tokens', level: 1 })).toBeVisible();
  // The dashboard's own session tokens are not API tokens: they are listed (and ended) on the Account page.
  await expect(page.getByRole('row', { name: /dashboard session/ })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Account', exact: true })).toBeVisible();
  await expect(page.getByRole('row', { name: /e2e checks/ }).getByRole('button', { name: 'Revoke e2e checks' })).toBeVisible();

  // Bad input is caught on its field before anything is sent.
  await page.getByRole('button', { name: 'Create token' }).click();
  await expect(page.getByText('Is required')).toBeVisible();
  await page.getByLabel('Label').fill('deploy script');
  await page.getByLabel('Expires after (days)').fill('0');
  await expect(page.getByText('Must be between 1 and 3650 days')).toBeVisible();
  await page.getByLabel('Expires after (days)').fill('30');
  await page.getByRole('button', { name: 'Create token' }).click();

  const secretBox = page.getByLabel('Your new API token');
  await expect(secretBox).toHaveValue(SECRET);
  const secret = await secretBox.inputValue();
  await expect(page.getByText('Copy it now: you will not see it again.')).toBeVisible();
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.getByRole('button', { name: 'Copy token' }).click();
  await expect(page.getByRole('button', { name: 'Copied', exact: true })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  await expect(page.getByRole('row', { name: /deploy script/ })).toContainText('in 30 days');
  await screenshot(page, 'tokens');

  // The secret opens the API from outside the browser, and it is its own token, not the session's.
  const api = (path: string, init: RequestInit = {}) => fetch(`${server.url}/api/v1${path}`, { ...init, headers: { authorization: `Bearer ${secret}` } });
  expect((await api('/ips')).status).toBe(200);
  const seenBySecret = (await (await api('/tokens')).json()) as Array<{ id: number; label: string; current: boolean }>;
  const mine = seenBySecret.find((t) => t.current)!;
  expect(mine.label).toBe('deploy script');
  expect(seenBySecret.find((t) => t.label === 'dashboard session')).toMatchObject({ current: false });

  // Once dismissed, the secret is gone from the page, and a reload does not bring it back.
  await page.getByRole('button', { name: 'Done, I have copied it' }).click();
  await expect(secretBox).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('row', { name: /deploy script/ })).toBeVisible();
  expect(await page.content()).not.toContain(secret);

  const row = page.getByRole('row', { name: /deploy script/ });
  await row.getByRole('button', { name: 'Revoke deploy script' }).click();
  const dialog = page.getByRole('dialog', { name: 'Revoke “deploy script”?' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Revoke token' }).click();
  await expect(page.getByText('Revoked “deploy script”')).toBeVisible();
  await expect(row).toHaveCount(0);

  const after = await api('/ips');
  expect(after.status).toBe(401);
  expect(after.headers.get('www-authenticate')).toMatch(/^Bearer/);
  // The session itself goes on: the page still loads its data.
  await page.reload();
  await expect(page.getByRole('row', { name: /e2e checks/ })).toBeVisible();
  expect((await user.api.call('GET', '/tokens')).body.map((t: { label: string }) => t.label)).toEqual(['e2e checks', 'dashboard session']);
});

test('the leak guard lets a token through only as the secret of a token the user just created', () => {
  const secret = `zd_${'a'.repeat(32)}`;
  const created = { url: 'http://127.0.0.1:1/bff/api/tokens', method: 'POST', status: 201 };
  const body = (extra: object) => JSON.stringify({ id: 3, label: 'x', created_at: '2026-01-01T00:00:00Z', last_used_at: null, expires_at: null, current: false, ...extra });

  expect(bodyLeak(created, body({ token: secret }))).toBeNull();
  // Anywhere else, in any other field, beside a second one, or for the session's own token: a leak.
  expect(bodyLeak({ ...created, method: 'GET', status: 200 }, `[${body({})}, "${secret}"]`)).toMatch(/in the body/);
  expect(bodyLeak({ ...created, url: 'http://127.0.0.1:1/bff/api/tokens/3' }, body({ token: secret }))).toMatch(/in the body/);
  expect(bodyLeak({ ...created, url: 'http://127.0.0.1:1/bff/session' }, body({ token: secret }))).toMatch(/in the body/);
  expect(bodyLeak(created, body({ token: secret, label: secret }))).toMatch(/second token/);
  expect(bodyLeak(created, body({ token: `x ${secret}` }))).toMatch(/"token" field/);
  expect(bodyLeak(created, body({ token: secret, current: true }))).toMatch(/current/);
  expect(bodyLeak(created, `not json ${secret}`)).toMatch(/not JSON/);
  expect(headerLeak(created, { 'set-cookie': secret })).toMatch(/headers/);
});
