import { expect, test } from './support/fixtures';

// A record's comment (its RRset's, the one the PowerDNS API keeps): written in the row editor, shown
// muted under the content in the list without cutting the name, read back through the API; on a
// desktop and on a 390×844 phone alike.
for (const [width, height] of [
  [1280, 800],
  [390, 844],
] as const) {
  test(`record comments at ${width}×${height}: set in the editor, shown in the list and through the API, cleared`, async ({ signedIn: page, user }) => {
    await page.setViewportSize({ width, height });
    const zone = `${user.username}.test`;
    expect((await user.api.call('POST', '/domains', { name: zone })).status).toBe(201);
    const created = await user.api.call('POST', `/domains/${zone}/records`, { name: '_sip._tcp.office', record_type: 'SRV', content: '10 5 5060 sip.example.com' });
    expect(created.status).toBe(200);
    await page.goto(`/domains/${zone}`);
    await expect(page.getByTestId('records-count')).toHaveText('3 records');

    const label = `_sip._tcp.office.${zone} SRV`;
    const row = page.getByRole('row').filter({ hasText: 'sip.example.com' });
    const nameCell = row.getByRole('cell').filter({ hasText: '_sip._tcp.office' }).first();
    const nameShown = () => nameCell.evaluate((el) => ({ width: Math.round(el.getBoundingClientRect().width), hidden: el.scrollWidth - el.clientWidth }));
    const nameBefore = await nameShown();
    await page.getByRole('button', { name: `Edit ${label}` }).click();
    const form = page.getByRole('form', { name: `Edit ${label}` });
    await expect(form.getByLabel('Comment')).toHaveValue('');
    await form.getByLabel('Comment').fill('Front desk phones, ticket OPS-12');
    await form.getByRole('button', { name: 'Save record' }).click();
    await expect(page.getByText(`Saved ${label}`)).toBeVisible();

    const note = row.locator('.record-comment');
    await expect(note).toHaveText('Comment: Front desk phones, ticket OPS-12');
    // Under the content; the name beside it keeps all the room it had (the comment takes none of it).
    const content = (await row.locator('.content-text').boundingBox())!;
    expect((await note.boundingBox())!.y).toBeGreaterThanOrEqual(content.y + content.height - 1);
    expect(await nameShown()).toEqual(nameBefore);

    const [rec] = await user.api.records(zone, 'name=_sip._tcp.office');
    expect(rec).toMatchObject({ content: '10 5 5060 sip.example.com', comment: 'Front desk phones, ticket OPS-12' });

    // Cleared in the editor: gone from the list and from the API.
    await page.getByRole('button', { name: `Edit ${label}` }).click();
    await expect(form.getByLabel('Comment')).toHaveValue('Front desk phones, ticket OPS-12');
    await form.getByLabel('Comment').fill('');
    await form.getByRole('button', { name: 'Save record' }).click();
    await expect(page.getByText(`Saved ${label}`).last()).toBeVisible();
    await expect(note).toHaveCount(0);
    await expect.poll(async () => (await user.api.records(zone, 'name=_sip._tcp.office'))[0]).not.toHaveProperty('comment');
  });
}
