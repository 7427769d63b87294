import { cli, expect, screenshot, signIn, test, TOKEN_PATTERN } from './support/fixtures';

test('a wrong password gets one generic message and no session', async ({ page, user }) => {
  await page.goto('/sign-in');
  await screenshot(page, 'sign-in');
  await signIn(page, { username: user.username, password: 'not-the-password' });
  await expect(page.getByRole('alert')).toHaveText('Wrong username or password.');
  await signIn(page, { username: 'nobody-here', password: user.password });
  await expect(page.getByRole('alert')).toHaveText('Wrong username or password.');
  await screenshot(page, 'sign-in-error');
  expect(await page.context().cookies()).toEqual([]);
});

test('a signed-out visitor is sent to sign-in and brought back to the page they asked for', async ({ page, user }) => {
  await page.goto('/ips?status=active');
  await expect(page).toHaveURL(/\/sign-in\?next=%2Fips%3Fstatus%3Dactive$/);
  await expect(page.getByText('Sign in to continue.')).toBeVisible();
  await signIn(page, user);
  await expect(page).toHaveURL(/\/ips\?status=active$/);
  await expect(page.getByRole('heading', { name: 'IP addresses' })).toBeVisible();
});

test('the browser holds nothing that opens the API', async ({ signedIn: page, server, user }) => {
  // The one cookie is HttpOnly: script sees none of it.
  expect(await page.evaluate(() => document.cookie)).toBe('');
  const cookies = await page.context().cookies();
  expect(cookies.map((c) => [c.name, c.httpOnly, c.sameSite, c.path])).toEqual([['zd_session', true, 'Strict', '/']]);

  const stored = await page.evaluate(() => [...Object.values(localStorage), ...Object.values(sessionStorage)]);
  const candidates = [...stored, ...cookies.map((c) => c.value), ...cookies.map((c) => `${c.name}=${c.value}`)];
  for (const secret of candidates) {
    const res = await fetch(`${server.url}/api/v1/ips`, { headers: { authorization: `Bearer ${secret}` } });
    expect(res.status, `"${secret.slice(0, 8)}…" must not open the API`).toBe(401);
  }
  for (const value of candidates) expect(value).not.toMatch(TOKEN_PATTERN);
  // The page itself, with its cookie, cannot call the API either: the API takes tokens only.
  expect(await page.evaluate(async () => (await fetch('/api/v1/ips')).status)).toBe(401);
  // The BFF refuses a state-changing call without the session's CSRF token.
  const csrfless = await page.evaluate(async () => (await fetch('/bff/api/domains', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"csrf.test"}' })).status);
  expect(csrfless).toBe(403);
  expect((await user.api.get('/domains')).length).toBe(0);
});

test('signing out ends the session and revokes its token', async ({ signedIn: page, server, user }) => {
  const sessionTokens = () => cli(server, 'tokens', 'list', user.username).filter((l) => l.includes('"dashboard session"'));
  expect(sessionTokens()).toHaveLength(1);
  const cookie = (await page.context().cookies())[0]!;
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  expect(await page.context().cookies()).toEqual([]);
  // The old cookie no longer opens anything.
  const res = await fetch(`${server.url}/bff/session`, { headers: { cookie: `${cookie.name}=${cookie.value}` } });
  expect(res.status).toBe(401);
  expect(sessionTokens()).toEqual([]);
  await page.goto('/domains');
  await expect(page).toHaveURL(/\/sign-in\?next=%2Fdomains$/);
});

test('security headers are on the page and the BFF', async ({ page, server }) => {
  const res = await page.goto('/sign-in');
  const h = res!.headers();
  expect(h['content-security-policy']).toContain("script-src 'self'");
  expect(h['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(h['content-security-policy']).not.toContain('unsafe-inline');
  expect(h['x-content-type-options']).toBe('nosniff');
  expect(h['referrer-policy']).toBe('no-referrer');
  const bff = await fetch(`${server.url}/bff/session`);
  expect(bff.headers.get('x-content-type-options')).toBe('nosniff');
  expect(bff.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
});

test('a session whose token is revoked from the CLI ends at the next click, and sign-in brings the user back', async ({ signedIn: page, server, user }) => {
  const tokens = cli(server, 'tokens', 'list', user.username).map((l) => JSON.parse(l) as { id: number; label: string });
  const session = tokens.find((t) => t.label === 'dashboard session')!;
  cli(server, 'tokens', 'revoke', String(session.id));
  await page.getByRole('link', { name: 'IPs' }).click();
  await expect(page).toHaveURL(/\/sign-in\?next=%2Fips$/);
  await signIn(page, user);
  await expect(page.getByRole('heading', { name: 'IP addresses' })).toBeVisible();
});

test('Account → Sessions names the browser and address each session signed in from', async ({ signedIn: page }) => {
  await page.goto('/account');
  const sessions = page.getByRole('region', { name: 'Sessions' });
  const mine = sessions.getByRole('row').filter({ hasText: 'This session' });
  // Playwright's Chromium on Linux, from this machine.
  await expect(mine).toContainText(/Chrome \d+ on Linux/);
  await expect(mine).toContainText('127.0.0.1');
});

test('the sign-in page shows no method before the server has said which are open', async ({ page }) => {
  // The server's answer held back a moment (it is the real answer, only later): nothing to fill meanwhile.
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  await page.route('**/bff/sign-in-methods', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/sign-in');
  await expect(page.getByText('Checking your session…')).toBeVisible();
  await expect(page.getByLabel('Password')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Sign in with a passkey' })).toHaveCount(0);
  release();
  await expect(page.getByLabel('Password')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign in with a passkey' })).toBeVisible();
});
