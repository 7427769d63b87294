/**
 * In the dashboard, as a small company would use it: an administrator creates a user
 * (reading their one-time password) and a team, invites the user as an editor and creates a zone
 * owned by the team; the editor signs in, accepts the invitation, changes a record (dig shows it)
 * and sees no SOA or DNSSEC controls; the administrator's audit log shows the invitation, its
 * acceptance and the editor's sign-in;
 * as a viewer the editor can only read; the editor changes their own password and signs in with it.
 */
import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { ApiClient } from './support/api-client';
import { expectServed } from './support/dns-checks';
import { cli, expect, screenshot, signIn, test } from './support/fixtures';

async function signOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
}

test('an admin shares a zone with a new user as editor; roles, audit log and self-service password', async ({ page, browser, server }) => {
  const id = randomBytes(4).toString('hex');
  const admin = { username: `boss${id}`, password: `pw-${randomBytes(6).toString('hex')}` };
  const editorName = `ed${id}`;
  const team = `team${id}`;
  const zone = `${team}.test`;
  cli(server, 'users', 'add', admin.username, '--admin', '--password', admin.password);
  const adminApi = new ApiClient(server.url, cli(server, 'tokens', 'create', admin.username, '--label', 'e2e checks').at(-1)!);

  // The administrator creates the user in the Users page and reads the one-time password, once.
  await page.goto('/sign-in');
  await signIn(page, admin);
  await expect(page.getByRole('heading', { name: 'Domains', level: 1 })).toBeVisible();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' }).click();
  await expect(page.getByRole('heading', { name: 'Users', level: 1 })).toBeVisible();
  await page.getByLabel('New user').fill(editorName);
  await page.getByRole('button', { name: 'Create user' }).click();
  const shown = page.getByRole('dialog', { name: `User ${editorName} created` });
  const oneTime = await shown.getByLabel(`One-time password for ${editorName}`).inputValue();
  expect(oneTime.length).toBeGreaterThanOrEqual(8);
  await screenshot(page, 'users-one-time-password');
  await shown.getByRole('button', { name: 'Done, I have copied it' }).click();
  await expect(page.getByRole('dialog')).toBeHidden();
  await expect(page.getByRole('row').filter({ hasText: editorName })).toContainText('Active');

  // A team, the user invited into it as an editor.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Teams' }).click();
  await page.getByLabel('New team').fill(team);
  await page.getByRole('button', { name: 'Create team' }).click();
  await expect(page.getByRole('heading', { name: `Team ${team}`, level: 1 })).toBeVisible();
  await expect(page.getByRole('term').filter({ hasText: 'Editor' })).toBeVisible();
  await page.getByLabel('Username').fill(editorName);
  await page.getByLabel('Role', { exact: true }).selectOption('editor');
  await page.getByRole('button', { name: 'Invite' }).click();
  await expect(page.getByText(`Invited ${editorName} to ${team} as editor: they join once they accept`)).toBeVisible();
  await expect(page.getByRole('region', { name: `Pending invitations to ${team}` })).toContainText(editorName);
  await screenshot(page, 'team');

  // A zone owned by the team, from the new-domain form's Owner choice.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Domains' }).click();
  await page.getByLabel('New domain').fill(zone);
  await page.getByLabel('Owner').selectOption(team);
  await page.getByRole('button', { name: 'Create domain' }).click();
  await expect(page.getByRole('heading', { name: zone, level: 1 })).toBeVisible();
  await expect(page.getByText(`Team ${team} · owner`)).toBeVisible();
  await expect(page.getByRole('heading', { name: 'SOA settings' })).toBeVisible();
  expect(await adminApi.get(`/domains/${zone}`)).toMatchObject({ team, role: 'owner' });
  expect((await adminApi.call('POST', `/domains/${zone}/records`, { name: 'www', record_type: 'A', content: '192.0.2.10' })).status).toBe(200);

  // The editor signs in (a browser of their own) with the one-time password and changes a record.
  const editorContext = await browser.newContext({ baseURL: server.url });
  const ed = await editorContext.newPage();
  await ed.goto('/sign-in');
  await signIn(ed, { username: editorName, password: oneTime });
  await expect(ed.getByRole('heading', { name: 'Domains', level: 1 })).toBeVisible();
  await expect(ed.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' })).toHaveCount(0);
  // The team's zone is theirs once they accept the invitation.
  await expect(ed.getByRole('link', { name: zone })).toHaveCount(0);
  await ed
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: /^Teams/ })
    .click();
  await ed.getByRole('button', { name: `Accept the invitation to ${team}` }).click();
  await expect(ed.getByText(`You joined ${team} as editor: its zones are under Domains`)).toBeVisible();
  await ed.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Domains' }).click();
  await ed.getByRole('link', { name: zone }).click();
  await expect(ed.getByText(`Team ${team} · editor`)).toBeVisible();
  await expect(ed.getByRole('link', { name: 'Records', exact: true })).toBeVisible();
  await ed.getByRole('button', { name: `Edit www.${zone} A` }).click();
  const edit = ed.getByRole('form', { name: `Edit www.${zone} A` });
  await edit.getByLabel('IPv4 address').fill('192.0.2.20');
  await edit.getByLabel('IPv4 address').press('Enter');
  await expect(ed.getByText(`Saved www.${zone} A`)).toBeVisible();
  await expectServed(adminApi, server, zone, { name: 'www', record_type: 'A', content: '192.0.2.20' });
  // No SOA timers, no DNSSEC switch, no deleting the zone.
  await expect(ed.getByRole('heading', { name: 'SOA settings' })).toHaveCount(0);
  await expect(ed.getByRole('heading', { name: 'DNSSEC' })).toHaveCount(0);
  await expect(ed.getByRole('switch')).toHaveCount(0);
  await expect(ed.getByRole('button', { name: 'Delete domain' })).toHaveCount(0);
  await screenshot(ed, 'editor-team-editor');

  // The administrator's audit log: the invitation, its acceptance and the editor's sign-in.
  await page.goto(`/audit?username=${editorName}`);
  await expect(page.getByRole('heading', { name: 'Audit log', level: 1 })).toBeVisible();
  const invited = page.locator('tr[data-kind="member-invited"]');
  await expect(invited).toContainText(editorName);
  await expect(invited).toContainText(`team ${team}`);
  await expect(invited).toContainText(admin.username);
  await expect(page.locator('tr[data-kind="invitation-accepted"]')).toContainText(editorName);
  await expect(page.locator('tr[data-kind="sign-in"]').filter({ hasText: editorName })).toHaveCount(1);
  await page.getByLabel('Event', { exact: true }).selectOption('member-invited');
  await expect(page).toHaveURL(/kind=member-invited/);
  await expect(page.getByTestId('audit-count')).toHaveText('1 event match');
  await screenshot(page, 'audit');

  // Made a viewer, the editor reads the zone and changes nothing.
  await page.goto(`/teams/${team}`);
  await page.getByLabel(`Role of ${editorName}`).selectOption('viewer');
  await expect(page.getByText(`${editorName} is now viewer of ${team}`)).toBeVisible();
  await ed.reload();
  await expect(ed.getByText(`Team ${team} · viewer`)).toBeVisible();
  await expect(ed.getByTestId('records-count')).toHaveText('3 records');
  await expect(ed.getByRole('button', { name: '+ Add record' })).toHaveCount(0);
  await expect(ed.getByRole('button', { name: `Edit www.${zone} A` })).toHaveCount(0);
  await expect(ed.getByRole('link', { name: 'Import' })).toHaveCount(0);
  // The zone's History shows the role change that touched it, to the member too.
  await ed.getByRole('link', { name: 'History', exact: true }).click();
  const roleChanges = ed.getByRole('region', { name: `Role changes in team ${team}` });
  await expect(roleChanges.locator('tr[data-kind="member-role-changed"]')).toContainText(editorName);
  await expect(roleChanges.locator('tr[data-kind="invitation-accepted"]')).toContainText(editorName);

  // The editor changes their own password on the Account page and signs in with the new one.
  const newPassword = `new-${randomBytes(6).toString('hex')}`;
  await ed.getByRole('link', { name: `Account of ${editorName}` }).click();
  await expect(ed.getByTestId('account-username')).toHaveText(editorName);
  await expect(ed.getByRole('row').filter({ hasText: 'This session' })).toHaveCount(1);
  await ed.getByLabel('Current password').fill('not-my-password');
  await ed.getByLabel('New password', { exact: true }).fill(newPassword);
  await ed.getByLabel('Confirm new password').fill(newPassword);
  await ed.getByRole('button', { name: 'Change password' }).click();
  await expect(ed.getByText('Is not your current password')).toBeVisible();
  await ed.getByLabel('Current password').fill(oneTime);
  await ed.getByRole('button', { name: 'Change password' }).click();
  await expect(ed.getByText('Password changed')).toBeVisible();
  await screenshot(ed, 'account');
  await signOut(ed);
  await signIn(ed, { username: editorName, password: oneTime });
  await expect(ed.getByRole('alert')).toHaveText('Wrong username or password.');
  await signIn(ed, { username: editorName, password: newPassword });
  await expect(ed.getByRole('heading', { name: 'Domains', level: 1 })).toBeVisible();
  await editorContext.close();
});
