import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { dig } from './support/dns-checks';
import { expect, screenshot, test } from './support/fixtures';

/** The serious or critical axe findings on the page, by rule. */
async function axeFindings(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join('; ')}`);
}

const noSideScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

test('DNSSEC policy: a signed zone moved to KSK+ZSK says first that it starts an algorithm rollover, then draws its timeline', async ({ signedIn: page, user }) => {
  const zone = `${user.username}.test`;
  expect((await user.api.call('POST', '/domains', { name: zone, dnssec_enabled: true })).status).toBe(201);
  await page.goto(`/domains/${zone}`);

  // One CSK, active, and nothing rolling.
  const keys = page.getByTestId('dnssec-keys');
  const [csk] = (await user.api.get(`/domains/${zone}/dnssec`)).keys;
  const key = keys.getByRole('listitem', { name: `Key CSK ${csk.key_tag}` });
  await expect(key).toContainText('active');
  await expect(key).toContainText('ECDSA P-256 (algorithm 13)');
  await expect(key.getByText(csk.ds)).toBeVisible();
  await expect(keys).toContainText('No rollover in progress');
  await expect(page.getByTestId('rollover-timeline')).toHaveCount(0);

  const policy = page.getByRole('form', { name: 'Policy' });
  await policy.getByRole('radio', { name: /Key-signing key \+ zone-signing key/ }).check();
  await expect(policy.getByText('Saving starts an algorithm rollover')).toBeVisible();
  await expect(policy.getByLabel('ZSK lifetime (days)')).toHaveValue('90');
  await policy.getByRole('button', { name: 'Save policy' }).click();
  const dialog = page.getByRole('dialog', { name: 'Start an algorithm rollover?' });
  await expect(dialog).toContainText('the current keys go only once the parent serves it');
  await dialog.getByRole('button', { name: 'Save and start the rollover' }).click();

  // The server starts the rollover on its next look at the zone (within seconds); the card asks again until it shows.
  const timeline = page.getByTestId('rollover-timeline');
  await expect(timeline).toContainText('Algorithm rollover in progress', { timeout: 30_000 });
  const view = await user.api.get(`/domains/${zone}/dnssec`);
  expect(view.policy.keys).toBe('ksk-zsk');
  expect(view.rollover.kind).toBe('algorithm');
  await expect(timeline.getByText(view.rollover.description)).toBeVisible();
  await expect(timeline.locator('[aria-current="step"]')).toContainText('The new keys sign, not yet published');
  await expect(timeline).toContainText('Next step not before');
  // The policy form repeats the server's words for what it began.
  await expect(policy.getByRole('status').filter({ hasText: 'Algorithm rollover to the new keys' })).toContainText(view.rollover.description);
  // The new KSK and ZSK are listed beside the old CSK, and one rollover at a time.
  await expect(keys.getByRole('listitem', { name: /^Key KSK / })).toBeVisible();
  await expect(keys.getByRole('listitem', { name: /^Key ZSK / })).toBeVisible();
  await expect(keys.getByRole('button', { name: 'Start a rollover now' })).toBeDisabled();
  // The policy is a change set of the dashboard in the zone's history.
  expect((await user.api.get(`/domains/${zone}/changes`)).some((c: { source: string }) => c.source === 'dashboard')).toBe(true);
  await screenshot(page, 'editor-dnssec-algorithm-rollover');
  expect(await axeFindings(page)).toEqual([]);
});

test('DNSSEC: "Start a rollover now" rolls the CSK, and the timeline shows the step while the name server publishes both keys', async ({ signedIn: page, user, server }) => {
  const zone = `${user.username}-roll.test`;
  expect((await user.api.call('POST', '/domains', { name: zone, dnssec_enabled: true })).status).toBe(201);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/domains/${zone}`);
  const keys = page.getByTestId('dnssec-keys');
  await expect(keys).toContainText('No rollover in progress');
  expect(dig(server, zone, 'DNSKEY')).toHaveLength(1);

  await keys.getByRole('button', { name: 'Start a rollover now' }).click();
  const dialog = page.getByRole('dialog', { name: `Start a key rollover for ${zone}?` });
  await expect(dialog).toContainText('The old key goes only after the parent zone serves the new DS');
  expect(await axeFindings(page)).toEqual([]);
  await dialog.getByRole('button', { name: 'Start the rollover' }).click();
  await expect(dialog).toHaveCount(0);

  const timeline = page.getByTestId('rollover-timeline');
  await expect(timeline).toContainText('CSK rollover in progress');
  await expect(timeline.locator('[aria-current="step"]')).toContainText('The new key is published and signs beside the old');
  const view = await user.api.get(`/domains/${zone}/dnssec`);
  expect(view.rollover).toMatchObject({ kind: 'csk', step: 'publish' });
  await expect(timeline.getByText(view.rollover.description)).toBeVisible();
  await expect(keys.getByRole('listitem', { name: /^Key CSK / })).toHaveCount(2);
  // What the timeline says is what DNS serves: the new key beside the old.
  await expect.poll(() => dig(server, zone, 'DNSKEY').length).toBe(2);
  expect(await noSideScroll(page)).toBe(true);
  await screenshot(page, 'editor-dnssec-csk-rollover-phone');
  expect(await axeFindings(page)).toEqual([]);
});
