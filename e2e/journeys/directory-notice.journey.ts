// The 18+ notice (DESIGN.md: visitors see it once): the site statement with Accept and Leave, gone
// for good in this browser once accepted. Also: the search box at the top, and the server HTML of a
// profile carrying its name for crawlers.
import assert from 'node:assert/strict';
import { expect, PHONE, test } from '../harness';
import { pageHelpers, waitForModalProfile } from './directory-helpers';

test.use({ viewport: PHONE });

test('directory: 18+ notice once, search from the top box, profile HTML @375x812', async ({ page, baseUrl, shot }) => {
  await pageHelpers(page);
  await page.goto(`${baseUrl}/`);
  const notice = page.getByTestId('adult-notice');
  await expect(notice).toContainText(
    'only lists adults who offer their time and companionship. We arrange no bookings.',
  );
  await expect(notice.getByRole('link', { name: 'Leave' })).toHaveAttribute('href', 'https://www.google.com/');
  // Nothing under it: the page works while it is shown.
  await page.getByTestId('top-countries').locator('a').first().waitFor();
  await shot('1-notice');
  await notice.getByRole('button', { name: 'I am 18 or older' }).click();
  await notice.waitFor({ state: 'detached' });
  await expect.poll(() => page.evaluate(() => window.localStorage.getItem('adult-notice'))).toBe('accepted');
  await page.reload();
  await page.getByTestId('top-countries').waitFor();
  await page.waitForTimeout(700); // past the start-up user-data call
  await expect(notice, 'shown once per browser').toHaveCount(0);
  await page.goto(`${baseUrl}/countries`);
  await page.getByTestId('country-list').waitFor();
  await expect(notice).toHaveCount(0);

  // Search from the box at the top; a result opens over the results.
  await page.getByRole('button', { name: 'Menu' }).click();
  const box = page.getByRole('searchbox', { name: 'Search profiles' });
  await box.fill('london');
  await box.press('Enter');
  await page.waitForURL('**/search?q=london');
  await page.getByRole('heading', { name: 'Results for “london”' }).waitFor();
  const card = page.getByTestId('profile-card').first();
  await card.waitFor();
  const id = Number(await card.getAttribute('data-id'));
  await expect(card.locator('.card__location')).toContainText('London');
  await card.locator('a').first().click();
  await waitForModalProfile(page, id);
  await page.keyboard.press('Escape');
  await page.waitForURL('**/search?q=london');
  await shot('2-search');

  // What a crawler (or curl) gets for /profile/{id}: the name in the first HTML.
  const html = await (await page.request.get(`${baseUrl}/profile/${id}`)).text();
  const name = (await card.locator('.card__name-text').innerText()).trim();
  assert.ok(html.includes(`<h1>${name}</h1>`), `the server HTML names ${name}`);
  assert.ok(
    html.includes('data-testid="profile-rates"') || html.includes('profile__section'),
    'with the profile sections',
  );
});
