// Bookmarks (spec sections 3-5): "Bookmark?" before adding (to the front of localStorage
// "bookmarks"), "Remove from bookmarks?" when present, cancel changes nothing; /bookmarks lists them
// newest first and does not fetch again while it has them; the stored list is cleaned of anything
// but non-zero numeric ids.
import assert from 'node:assert/strict';
import { journey, PHONE } from '../harness';
import { acceptedNotice, busiestCountry, openList, waitForModalProfile } from './directory-helpers';

journey('directory: bookmark dialogs and the bookmarks list', PHONE, async ({ page, baseUrl, screenshot }) => {
  await acceptedNotice(page);
  const stored = () => page.evaluate(() => window.localStorage.getItem('bookmarks'));
  const country = await busiestCountry(page, baseUrl);
  const items = await openList(page, baseUrl, `/escorts/${country.slug}`);
  const [first, second] = [items[0], items[1]];

  await page.getByTestId('profile-card').first().locator('a').first().click();
  await waitForModalProfile(page, first.id);
  const modal = page.getByTestId('profile-modal');
  const button = modal.getByTestId('bookmark-button');
  const dialog = page.getByTestId('confirm-dialog');
  assert.equal(await button.getAttribute('aria-pressed'), 'false');

  // Cancel: nothing saved.
  await button.click();
  await dialog.getByRole('heading', { name: 'Bookmark?' }).waitFor();
  await screenshot('1-confirm-add');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await dialog.waitFor({ state: 'detached' });
  assert.equal(await button.getAttribute('aria-pressed'), 'false');
  assert.equal(await stored(), null);
  await modal.waitFor(); // the confirm closed, the modal stayed

  // Confirm: saved.
  await button.click();
  await dialog.getByRole('button', { name: 'Bookmark' }).click();
  await modal.locator('[data-testid="bookmark-button"][aria-pressed="true"]').waitFor();
  assert.equal(await stored(), JSON.stringify([first.id]));

  // The next profile, bookmarked too: it goes to the front.
  await page.keyboard.press('ArrowRight');
  await waitForModalProfile(page, second.id);
  await button.click();
  await dialog.getByRole('button', { name: 'Bookmark' }).click();
  await modal.locator('[data-testid="bookmark-button"][aria-pressed="true"]').waitFor();
  assert.equal(await stored(), JSON.stringify([second.id, first.id]));

  // Present: "Remove from bookmarks?"; cancel keeps it, confirm removes it.
  await button.click();
  await dialog.getByRole('heading', { name: 'Remove from bookmarks?' }).waitFor();
  await screenshot('2-confirm-remove');
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  await modal.waitFor();
  assert.equal(await stored(), JSON.stringify([second.id, first.id]));
  await button.click();
  await dialog.getByRole('button', { name: 'Remove' }).click();
  await modal.locator('[data-testid="bookmark-button"][aria-pressed="false"]').waitFor();
  assert.equal(await stored(), JSON.stringify([first.id]));
  await button.click();
  await dialog.getByRole('button', { name: 'Bookmark' }).click();
  await modal.locator('[data-testid="bookmark-button"][aria-pressed="true"]').waitFor();
  await page.keyboard.press('Escape');
  await modal.waitFor({ state: 'detached' });

  // /bookmarks from the menu: newest first.
  const fetched: string[] = [];
  page.on('request', (r) => {
    if (/\/api\/getProfile\/\d+/.test(r.url())) fetched.push(r.url());
  });
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.locator('#main-menu').getByRole('link', { name: 'Bookmarks' }).click();
  await page.waitForURL('**/bookmarks');
  const grid = page.getByTestId('bookmark-grid');
  await grid.waitFor();
  await page.waitForFunction(
    () => document.querySelectorAll('[data-testid="bookmark-grid"] [data-testid="profile-card"]').length === 2,
  );
  const order = await grid
    .getByTestId('profile-card')
    .evaluateAll((els) => els.map((el) => Number(el.getAttribute('data-id'))));
  assert.deepEqual(order, [second.id, first.id]);
  assert.equal(
    (await grid.getByTestId('profile-card').first().locator('.card__name-text').innerText()).trim(),
    second.name,
  );
  await screenshot('3-bookmarks');
  const fetchedFirst = fetched.length;
  assert.equal(fetchedFirst, 2, 'one fetch per bookmark');

  // Away and back: the list is shown from what it has, no reload.
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.locator('#main-menu').getByRole('link', { name: 'Worldwide' }).click();
  await page.getByTestId('country-list').waitFor();
  await page.goBack();
  await grid.waitFor();
  await page.waitForTimeout(300);
  assert.equal(fetched.length, fetchedFirst, 'no reload while the result exists');

  // A card opens the modal over the bookmarks; its star removes the bookmark after the confirm.
  await grid.getByTestId('profile-card').first().locator('a').first().click();
  await waitForModalProfile(page, second.id);
  await page.keyboard.press('Escape');
  await page.getByTestId('profile-modal').waitFor({ state: 'detached' });
  await grid.getByTestId('profile-card').first().getByTestId('bookmark-button').click();
  await dialog.getByRole('button', { name: 'Remove' }).click();
  await page.waitForFunction(
    () => document.querySelectorAll('[data-testid="bookmark-grid"] [data-testid="profile-card"]').length === 1,
  );
  assert.equal(await stored(), JSON.stringify([first.id]));

  // Junk in storage is dropped (numeric strings are ids; zero, text, fractions are not).
  await page.evaluate(
    (id) => window.localStorage.setItem('bookmarks', JSON.stringify([0, 'abc', String(id), null, 1.5])),
    second.id,
  );
  await page.reload();
  await page.waitForFunction(
    () => document.querySelectorAll('[data-testid="bookmark-grid"] [data-testid="profile-card"]').length === 1,
  );
  assert.equal(
    await page.getByTestId('bookmark-grid').getByTestId('profile-card').getAttribute('data-id'),
    String(second.id),
  );

  // Empty list: a way back to browsing.
  await page.getByTestId('bookmark-grid').getByTestId('bookmark-button').click();
  await dialog.getByRole('button', { name: 'Remove' }).click();
  await page.getByTestId('bookmarks-empty').waitFor();
  assert.equal(await stored(), '[]');
  await screenshot('4-empty');
});
