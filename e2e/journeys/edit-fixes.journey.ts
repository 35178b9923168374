// Edit-screen defects of issue 23 found at 375 px: the edit menu in groups, "Your Likes" saying it means
// services (item 8); the admin's Warn and Directory Admin acting on the profile being edited, through its
// admin modal (item 9); notices that can be dismissed and leave the menu on the first screen (item 6).
import assert from 'node:assert/strict';
import { expect, PHONE, test } from '../harness';
import { call, newAdvertiser, signInAsAdmin } from './admin-helpers';

test.use({ viewport: PHONE });

const GROUPS = ['Profile', 'Photos and video', 'Location and tours', 'Money', 'Account'];

test('edit: the menu in groups, Your Likes named as services @375x812', async ({ browser, baseUrl }) => {
  const advertiser = await newAdvertiser(browser, baseUrl, 'groups', { complete: true, viewport: PHONE });
  const page = advertiser.page;
  try {
    await page.goto(`${baseUrl}/edit/${advertiser.id}`);
    const menu = page.getByTestId('edit-menu');
    await menu.waitFor();
    await expect(menu.getByRole('heading', { level: 2 })).toHaveText(GROUPS);
    const profile = menu.getByRole('region', { name: 'Profile' });
    await expect(profile.getByRole('link', { name: /^Your Likes \(services\)/ })).toBeVisible();
    await expect(menu.getByRole('region', { name: 'Money' }).getByRole('link')).toHaveCount(2);
    // 21 entries for an advertiser (the spec's 23 less the admin's two), each once.
    const sections = await menu
      .locator('[data-section]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-section')));
    assert.equal(sections.length, 21);
    assert.equal(new Set(sections).size, 21);
    await page.screenshot({ path: test.info().outputPath('1-menu-groups.png'), fullPage: true });
    // German: the same groups, in German.
    await page.goto(`${baseUrl}/edit/${advertiser.id}?lang=de`);
    await expect(menu.getByRole('heading', { level: 2 })).toHaveText([
      'Profil',
      'Fotos und Video',
      'Ort und Touren',
      'Geld',
      'Konto',
    ]);
  } finally {
    await advertiser.context.close();
  }
});

test("edit: the admin's Warn and Directory Admin open this profile's admin modal @375x812", async ({
  page,
  browser,
  baseUrl,
  shot,
}) => {
  const advertiser = await newAdvertiser(browser, baseUrl, 'warnee', { complete: true, viewport: PHONE });
  await advertiser.context.close();
  await signInAsAdmin(page, baseUrl);
  await page.goto(`${baseUrl}/edit/${advertiser.id}`);
  const menu = page.getByTestId('edit-menu');
  await menu.waitFor();
  const admin = menu.getByRole('region', { name: 'Admin' });
  const modal = page.getByTestId('admin-modal');
  for (const entry of ['Warn', 'Directory Admin']) {
    const button = admin.getByRole('button', { name: new RegExp(`^${entry}`) });
    await button.click();
    await modal.getByRole('heading', { name: `Admin - ${advertiser.screenName}` }).waitFor();
    await expect(page, 'still on the edit screen').toHaveURL((url) => url.pathname === `/edit/${advertiser.id}`);
    if (entry === 'Warn') await shot('2-warn-opens-admin-modal');
    await modal.locator('.admin-modal__actions').getByRole('button', { name: 'Close' }).click();
    await modal.waitFor({ state: 'detached' });
    await expect(button, 'focus back on the entry').toBeFocused();
  }
});

test('edit: notices dismissed one by one or all, the menu still on the first screen @375x812', async ({
  page,
  browser,
  baseUrl,
}) => {
  const advertiser = await newAdvertiser(browser, baseUrl, 'noticed', { complete: true, viewport: PHONE });
  try {
    // Two notices: two warnings from the moderators (each deletes media, of which there is none).
    await signInAsAdmin(page, baseUrl);
    await call(page, `/admin/warn/${advertiser.id}`);
    await call(page, `/admin/warn/${advertiser.id}`);
    const mine = advertiser.page;
    await mine.goto(`${baseUrl}/edit/${advertiser.id}`);
    const notices = mine.getByTestId('notices');
    await expect(notices.getByTestId('notice')).toHaveCount(2);
    await expect(notices.getByRole('heading')).toHaveText('2 messages for you');
    const menu = mine.getByTestId('edit-menu');
    await menu.waitFor();
    const firstGroup = await menu.getByRole('heading', { level: 2 }).first().boundingBox();
    assert.ok(firstGroup && firstGroup.y + firstGroup.height <= PHONE.height, `menu at ${firstGroup?.y}`);
    await mine.screenshot({ path: test.info().outputPath('3-notices-and-menu.png') });
    // One dismissed, then the last with it: gone, and still gone after a reload.
    await notices
      .getByRole('button', { name: /^Dismiss “Warning from our moderators”/ })
      .first()
      .click();
    await expect(notices.getByTestId('notice')).toHaveCount(1);
    await expect(notices.getByTestId('notice').locator('details')).toHaveAttribute('open', '');
    await call(page, `/admin/warn/${advertiser.id}`);
    await mine.reload();
    await expect(notices.getByTestId('notice')).toHaveCount(2);
    await notices.getByRole('button', { name: 'Dismiss all' }).click();
    await expect(notices).toHaveCount(0);
    await mine.reload();
    await menu.waitFor();
    await expect(notices).toHaveCount(0);
  } finally {
    await advertiser.context.close();
  }
});
