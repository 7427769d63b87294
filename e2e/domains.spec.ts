import { expect, screenshot, test } from './support/fixtures';

test('create a zone: an invalid name is refused as you type, a taken one by the server, a good one opens the editor', async ({ signedIn: page, user }) => {
  await expect(page.getByText('No domains yet')).toBeVisible();
  await screenshot(page, 'domains-empty');
  const name = page.getByLabel('New domain');

  await name.fill('bad_name.test');
  await expect(page.getByText('label "bad_name" may contain only letters, digits and hyphens', { exact: false })).toBeVisible();
  await expect(name).toHaveAttribute('aria-invalid', 'true');
  await name.fill('localhost');
  await expect(page.getByText('Must have at least two labels, like example.com')).toBeVisible();
  await page.getByRole('button', { name: 'Create domain' }).click();
  expect(await user.api.get('/domains')).toEqual([]);
  await screenshot(page, 'domains-invalid-name');

  await name.fill('Bücher.Example.');
  await expect(page.getByText('Will be created as xn--bcher-kva.example')).toBeVisible();
  await page.getByRole('button', { name: 'Create domain' }).click();
  // Shown as written, with the A-label the DNS uses beside it.
  await expect(page.getByRole('heading', { name: 'bücher.example', level: 1 })).toBeVisible();
  await expect(page.getByText('xn--bcher-kva.example', { exact: true })).toBeVisible();
  expect((await user.api.get('/domains')).map((d: { name: string }) => d.name)).toEqual(['xn--bcher-kva.example']);

  // Rules only the server knows (the name is taken) show on the field too.
  await page.getByRole('link', { name: 'Domains' }).first().click();
  // A search in Unicode finds the zone stored in A-labels.
  await page.getByLabel('Search', { exact: true }).fill('bücher');
  await expect(page.getByRole('link', { name: 'bücher.example' })).toBeVisible();
  await page.getByLabel('Search', { exact: true }).fill('');
  await name.fill('xn--bcher-kva.example');
  await page.getByRole('button', { name: 'Create domain' }).click();
  await expect(page.getByText('You already manage this domain')).toBeVisible();
});

test('search the list, then delete a zone by typing its name', async ({ signedIn: page, user }) => {
  for (const n of ['alpha.test', 'beta.test', 'gamma.test']) expect((await user.api.call('POST', '/domains', { name: n })).status).toBe(201);
  await user.api.call('PUT', '/domains/beta.test', { dnssec_enabled: true });
  await page.reload();
  const rows = page.getByRole('region', { name: 'Your domains' }).locator('table.table > tbody > tr');
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(1)).toContainText('Signed');
  // The e2e server has no RESOLVER: no check has run, and the list says so instead of "Not delegated".
  await expect(rows.nth(0)).toContainText('Not checked');
  await expect(rows.nth(0)).not.toContainText('Not delegated');
  await screenshot(page, 'domains');

  await page.getByLabel('Search', { exact: true }).fill('amm');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('gamma.test');
  await expect(page).toHaveURL(/q=amm/);
  await page.getByLabel('Search', { exact: true }).fill('');
  await expect(rows).toHaveCount(3);

  await page.getByRole('button', { name: 'Delete beta.test' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete beta.test?' });
  await expect(dialog).toBeVisible();
  const confirm = dialog.getByRole('button', { name: 'Delete domain' });
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel('Type beta.test to confirm').fill('beta.tes');
  await expect(confirm).toBeDisabled();
  await screenshot(page, 'domains-delete-dialog');
  await dialog.getByLabel('Type beta.test to confirm').fill('beta.test');
  await confirm.click();
  await expect(dialog).toBeHidden();
  await expect(rows).toHaveCount(2);
  expect((await user.api.call('GET', '/domains/beta.test')).status).toBe(404);
});

test('a page past the end goes to the last page, and each page names itself in the tab', async ({ signedIn: page, user }) => {
  await expect(page).toHaveTitle('Domains · zonedeck');
  const zone = `${user.username}-paging.test`;
  await user.api.call('POST', '/domains', { name: zone });
  await page.goto('/domains?page=99');
  await expect(page.getByText('Page 1 of 1')).toBeVisible();
  await expect(page.getByRole('link', { name: zone })).toBeVisible();
  await expect(page).toHaveURL(/page=1/);
  await page.getByRole('link', { name: zone }).click();
  await expect(page).toHaveTitle(`${zone} · zonedeck`);
  await page.getByRole('link', { name: 'History' }).click();
  await expect(page).toHaveTitle(`${zone} · History · zonedeck`);
  await page.goto('/tokens');
  await expect(page).toHaveTitle('API tokens · zonedeck');
});
