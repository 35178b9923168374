// The 18+ notice (DESIGN.md: visitors see it once): the site statement with Accept and Leave, gone
// for good in this browser once accepted. Also: the search box at the top, and the server HTML of a
// profile carrying its name for crawlers.
import assert from 'node:assert/strict';
import { journey, PHONE } from '../harness';
import { pageHelpers, waitForModalProfile } from './directory-helpers';

journey(
  'directory: 18+ notice once, search from the top box, profile HTML',
  PHONE,
  async ({ page, baseUrl, screenshot }) => {
    await pageHelpers(page);
    await page.goto(`${baseUrl}/`);
    const notice = page.getByTestId('adult-notice');
    await notice.waitFor();
    assert.match(
      await notice.innerText(),
      /only lists adults who offer their time and companionship\. We arrange no bookings\./,
    );
    assert.equal(await notice.getByRole('link', { name: 'Leave' }).getAttribute('href'), 'https://www.google.com/');
    // Nothing under it: the page works while it is shown.
    await page.getByTestId('top-countries').locator('a').first().waitFor();
    await screenshot('1-notice');
    await notice.getByRole('button', { name: 'I am 18 or older' }).click();
    await notice.waitFor({ state: 'detached' });
    assert.equal(await page.evaluate(() => window.localStorage.getItem('adult-notice')), 'accepted');
    await page.reload();
    await page.getByTestId('top-countries').waitFor();
    await page.waitForTimeout(700); // past the start-up user-data call
    assert.equal(await notice.count(), 0, 'shown once per browser');
    await page.goto(`${baseUrl}/countries`);
    await page.getByTestId('country-list').waitFor();
    assert.equal(await notice.count(), 0);

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
    assert.match(await card.locator('.card__location').innerText(), /London/);
    await card.locator('a').first().click();
    await waitForModalProfile(page, id);
    await page.keyboard.press('Escape');
    await page.waitForURL('**/search?q=london');
    await screenshot('2-search');

    // What a crawler (or curl) gets for /profile/{id}: the name in the first HTML.
    const html = await (await page.request.get(`${baseUrl}/profile/${id}`)).text();
    const name = (await card.locator('.card__name-text').innerText()).trim();
    assert.ok(html.includes(`<h1>${name}</h1>`), `the server HTML names ${name}`);
    assert.ok(
      html.includes('data-testid="profile-rates"') || html.includes('profile__section'),
      'with the profile sections',
    );
  },
);
