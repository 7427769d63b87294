/**
 * Joining a team in the dashboard: an owner invites a user, who sees the invitation counted in
 * the navigation and waiting on their Teams page; nothing of the team is theirs until they accept;
 * accepted, the team's zone is in their Domains with the role offered. An invitation to a name
 * nobody has looks like any other, and the owner cancels it.
 */
import { randomBytes } from 'node:crypto';
import { ApiClient } from './support/api-client';
import { cli, expect, screenshot, signIn, test } from './support/fixtures';

test('an owner invites a user, who accepts in the dashboard and then reaches the team zone', async ({ signedIn: page, user: owner, browser, server }) => {
  const id = randomBytes(4).toString('hex');
  const team = `crew${id}`;
  const zone = `${team}.test`;
  const ghost = `nobody${id}`;
  const invitee = { username: `inv${id}`, password: `pw-${randomBytes(6).toString('hex')}` };
  cli(server, 'users', 'add', invitee.username, '--password', invitee.password);
  const inviteeApi = new ApiClient(server.url, cli(server, 'tokens', 'create', invitee.username, '--label', 'e2e checks').at(-1)!);
  expect((await owner.api.call('POST', '/teams', { name: team })).status).toBe(201);
  expect((await owner.api.call('POST', '/domains', { name: zone, team })).status).toBe(201);

  // The owner invites the user as an editor, and a name nobody has as a viewer: both wait alike.
  await page.goto(`/teams/${team}`);
  await expect(page.getByRole('heading', { name: `Team ${team}`, level: 1 })).toBeVisible();
  for (const [username, role] of [
    [invitee.username, 'editor'],
    [ghost, 'viewer'],
  ] as const) {
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Role', { exact: true }).selectOption(role);
    await page.getByRole('button', { name: 'Invite' }).click();
    await expect(page.getByText(`Invited ${username} to ${team} as ${role}: they join once they accept`)).toBeVisible();
  }
  const pending = page.getByRole('region', { name: `Pending invitations to ${team}` });
  await expect(pending.getByRole('row').filter({ hasText: invitee.username })).toContainText('Pending');
  await expect(pending.getByRole('row').filter({ hasText: ghost })).toContainText('Pending');
  await expect(
    page
      .getByRole('region', { name: `Members of ${team}` })
      .getByRole('row')
      .filter({ hasText: invitee.username }),
  ).toHaveCount(0);
  await screenshot(page, 'team-invitations');
  // The owner takes back the invitation to the unknown name.
  await page.getByRole('button', { name: `Cancel the invitation of ${ghost}` }).click();
  await expect(page.getByText(`Cancelled the invitation of ${ghost}`)).toBeVisible();
  await expect(pending.getByRole('row').filter({ hasText: ghost })).toHaveCount(0);

  // The invitee signs in: the invitation is counted beside Teams; the zone is not theirs yet.
  const context = await browser.newContext({ baseURL: server.url });
  const inv = await context.newPage();
  await inv.goto('/sign-in');
  await signIn(inv, invitee);
  await expect(inv.getByRole('heading', { name: 'Domains', level: 1 })).toBeVisible();
  const teamsLink = inv.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /^Teams/ });
  await expect(teamsLink).toHaveAccessibleName('Teams 1 pending invitation');
  await expect(inv.getByRole('link', { name: zone })).toHaveCount(0);
  expect((await inviteeApi.call('GET', `/domains/${zone}`)).status).toBe(404);

  await teamsLink.click();
  const mine = inv.getByRole('region', { name: 'Your invitations' });
  const row = mine.getByRole('row').filter({ hasText: team });
  await expect(row).toContainText('Editor');
  await expect(row).toContainText(owner.username);
  await screenshot(inv, 'my-invitations');
  await inv.getByRole('button', { name: `Accept the invitation to ${team}` }).click();
  await expect(inv.getByText(`You joined ${team} as editor: its zones are under Domains`)).toBeVisible();
  await expect(mine).toHaveCount(0);
  await expect(teamsLink).toHaveAccessibleName('Teams');
  await expect(inv.getByRole('region', { name: 'Your teams' }).getByRole('link', { name: team })).toBeVisible();

  // The team's zone is theirs to reach now, as an editor.
  await inv.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Domains' }).click();
  await inv.getByRole('link', { name: zone }).click();
  await expect(inv.getByRole('heading', { name: zone, level: 1 })).toBeVisible();
  await expect(inv.getByText(`Team ${team} · editor`)).toBeVisible();
  expect(await inviteeApi.get(`/domains/${zone}`)).toMatchObject({ name: zone, team, role: 'editor' });

  // The owner sees a member now, and nothing pending.
  await page.reload();
  await expect(page.getByLabel(`Role of ${invitee.username}`)).toHaveValue('editor');
  await expect(pending).toHaveCount(0);
  await context.close();
});
