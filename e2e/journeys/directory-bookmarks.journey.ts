// Bookmarks (spec sections 3-5): "Bookmark?" before adding (to the front of localStorage
// "bookmarks"), "Remove from bookmarks?" when present, cancel changes nothing; /bookmarks lists them
// newest first and does not fetch again while it has them; the stored list is cleaned of anything
// but non-zero numeric ids.
import { expect, PHONE, test } from '../harness';
import { acceptedNotice, busiestCountry, openList, waitForModalProfile } from './directory-helpers';

test.use({ viewport: PHONE });

test('directory: bookmark dialogs and the bookmarks list @375x812', async ({ page, baseUrl, shot }) => {
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
  await expect(button).toHaveAttribute('aria-pressed', 'false');

  // Cancel: nothing saved.
  await button.click();
  await dialog.getByRole('heading', { name: 'Bookmark?' }).waitFor();
  await shot('1-confirm-add');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await dialog.waitFor({ state: 'detached' });
  await expect(button).toHaveAttribute('aria-pressed', 'false');
  await expect.poll(stored).toBe(null);
  await modal.waitFor(); // the confirm closed, the modal stayed

  // Confirm: saved.
  await button.click();
  await dialog.getByRole('button', { name: 'Bookmark' }).click();
  await expect(button).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(stored).toBe(JSON.stringify([first.id]));

  // The next profile, bookmarked too: it goes to the front.
  await page.keyboard.press('ArrowRight');
  await waitForModalProfile(page, second.id);
  await button.click();
  await dialog.getByRole('button', { name: 'Bookmark' }).click();
  await expect(button).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(stored).toBe(JSON.stringify([second.id, first.id]));

  // Present: "Remove from bookmarks?"; cancel keeps it, confirm removes it.
  await button.click();
  await dialog.getByRole('heading', { name: 'Remove from bookmarks?' }).waitFor();
  await shot('2-confirm-remove');
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  await modal.waitFor();
  await expect.poll(stored).toBe(JSON.stringify([second.id, first.id]));
  await button.click();
  await dialog.getByRole('button', { name: 'Remove' }).click();
  await expect(button).toHaveAttribute('aria-pressed', 'false');
  await expect.poll(stored).toBe(JSON.stringify([first.id]));
  await button.click();
  await dialog.getByRole('button', { name: 'Bookmark' }).click();
  await expect(button).toHaveAttribute('aria-pressed', 'true');
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
  const cards = grid.getByTestId('profile-card');
  await expect(cards).toHaveCount(2);
  await expect(cards.first()).toHaveAttribute('data-id', String(second.id));
  await expect(cards.nth(1)).toHaveAttribute('data-id', String(first.id));
  await expect(cards.first().locator('.card__name-text')).toHaveText(second.name);
  await shot('3-bookmarks');
  const fetchedFirst = fetched.length;
  expect(fetchedFirst, 'one fetch per bookmark').toBe(2);

  // Away and back: the list is shown from what it has, no reload.
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.locator('#main-menu').getByRole('link', { name: 'Worldwide' }).click();
  await page.getByTestId('country-list').waitFor();
  await page.goBack();
  await grid.waitFor();
  await page.waitForTimeout(300);
  expect(fetched.length, 'no reload while the result exists').toBe(fetchedFirst);

  // A card opens the modal over the bookmarks; its star removes the bookmark after the confirm.
  await cards.first().locator('a').first().click();
  await waitForModalProfile(page, second.id);
  await page.keyboard.press('Escape');
  await page.getByTestId('profile-modal').waitFor({ state: 'detached' });
  await cards.first().getByTestId('bookmark-button').click();
  await dialog.getByRole('button', { name: 'Remove' }).click();
  await expect(cards).toHaveCount(1);
  await expect.poll(stored).toBe(JSON.stringify([first.id]));

  // Junk in storage is dropped (numeric strings are ids; zero, text, fractions are not).
  await page.evaluate(
    (id) => window.localStorage.setItem('bookmarks', JSON.stringify([0, 'abc', String(id), null, 1.5])),
    second.id,
  );
  await page.reload();
  await expect(cards).toHaveCount(1);
  await expect(cards).toHaveAttribute('data-id', String(second.id));

  // Empty list: a way back to browsing.
  await grid.getByTestId('bookmark-button').click();
  await dialog.getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByTestId('bookmarks-empty')).toBeVisible();
  await expect.poll(stored).toBe('[]');
  await shot('4-empty');
});
