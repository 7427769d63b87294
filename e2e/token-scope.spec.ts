/**
 * The tokens page's create form takes a scope, in the API's words. A token limited to one
 * zone and read-only is listed with its scope, and its secret, used against /api/v1 from outside the
 * browser, reads that zone, is refused a write (403) and another user's zone (404) and one of the
 * user's other zones (403, as for every zone outside a scope).
 */
import { expect, test } from './support/fixtures';

test('a token scoped to one zone and read-only is created on the tokens page, listed with its scope, and held to it', async ({ signedIn: page, server, user }) => {
  const zone = `${user.username}-scoped.test`;
  const other = `${user.username}-other.test`;
  for (const name of [zone, other]) expect((await user.api.call('POST', '/domains', { name })).status).toBe(201);

  await page.goto('/tokens');
  const form = page.getByRole('form', { name: 'Create an API token' });
  await form.getByLabel('Label').fill('read one zone');
  // The server's word on a bad entry shows on the field it names, naming the entry.
  await form.getByLabel('Zones').fill(`${zone}, nope`);
  await form.getByRole('button', { name: 'Create token' }).click();
  await expect(form.getByText('“nope”: must have at least two labels')).toBeVisible();
  await expect(form.getByLabel('Zones')).toHaveAttribute('aria-invalid', 'true');

  await form.getByLabel('Zones').fill(zone);
  await form.getByLabel(/Read-only/).check();
  await form.getByRole('button', { name: 'Create token' }).click();
  const secretBox = page.getByLabel('Your new API token');
  await expect(secretBox).toHaveValue(/^zd_/);
  const secret = await secretBox.inputValue();
  await page.getByRole('button', { name: 'Done, I have copied it' }).click();

  const row = page.getByRole('row', { name: /read one zone/ });
  await expect(row.getByRole('listitem')).toHaveText([`Zones: ${zone}`, 'Read-only']);
  await expect(page.getByRole('row', { name: /e2e checks/ })).toContainText('Unrestricted');

  const api = (method: string, path: string, body?: unknown) =>
    fetch(`${server.url}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${secret}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  expect((await api('GET', `/domains/${zone}/records`)).status).toBe(200);
  const write = await api('POST', `/domains/${zone}/records`, { name: 'www', record_type: 'A', content: '192.0.2.1' });
  expect(write.status).toBe(403);
  expect((await write.json()).error.message).toMatch(/read-only/);
  expect((await api('GET', '/domains/nobody-holds-this.test')).status).toBe(404);
  expect((await api('GET', `/domains/${other}`)).status).toBe(403);
  expect(await user.api.records(zone, 'name=www')).toEqual([]);
});
