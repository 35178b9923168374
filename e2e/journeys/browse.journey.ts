// Journey 1: a visitor goes from the home page to a country, scrolls to the second page of the
// list and opens a profile; on a phone and on a desktop.
import assert from 'node:assert/strict';
import { DESKTOP, expect, PHONE, test } from '../harness';
import { appTookOver } from './directory-helpers';

const PAGE_SIZE = 24;

for (const viewport of [PHONE, DESKTOP]) {
  test.describe(() => {
    test.use({ viewport });
    test(`browse: home, country, page 2, profile @${viewport.width}x${viewport.height}`, async ({
      page,
      baseUrl,
      requests,
      shot,
    }) => {
      await page.goto(`${baseUrl}/`);
      const countryLinks = page.getByTestId('top-countries').locator('a');
      await countryLinks.first().waitFor();
      // The server's first HTML shows the cards before the app takes the page over (body id, notice).
      await appTookOver(page);
      await expect(page.locator('body')).toHaveId('home-page');
      await expect(page).toHaveTitle(/Companion/);
      await page.getByText('We arrange no bookings', { exact: false }).first().waitFor();
      await shot('1-home');

      // The lazy directory section came from /dyn/ with the build id as ?v=.
      const buildId = await page.evaluate(() => window.__directoryApp?.buildId);
      assert.ok(buildId, 'the page exposes its build id');
      const sectionChunk = requests.find((url) => /\/dyn\/directory-[^/?]+\.js\?v=/.test(url));
      assert.ok(
        sectionChunk,
        `a directory chunk request under /dyn/ with ?v= (requests: ${requests.filter((u) => u.includes('/dyn/')).join(', ')})`,
      );
      assert.ok(sectionChunk.endsWith(`?v=${buildId}`), `chunk version is the build id: ${sectionChunk}`);

      // The busiest country is first.
      const href = await countryLinks.first().getAttribute('href');
      assert.match(href ?? '', /^\/escorts\/[a-z-]+$/);
      const firstPage = page.waitForResponse((r) => r.url().includes('/api/directory/getDirectory?page=1'));
      await countryLinks.first().click();
      await page.waitForURL(`**${href}`);
      const page1 = (await (await firstPage).json()) as { has_more: boolean; data: unknown[] };
      const cards = page.getByTestId('profile-card');
      await cards.first().waitFor();
      await expect(page.locator('body')).toHaveId('escorts-page');
      await expect(cards).toHaveCount(page1.data.length);
      assert.ok(page1.has_more, 'the seed lists more than one page in the busiest country');
      assert.equal(page1.data.length, PAGE_SIZE);
      await shot('2-country');

      // Scrolling to the end of the list brings page 2.
      const secondPage = page.waitForResponse((r) => r.url().includes('/api/directory/getDirectory?page=2'));
      await page.getByTestId('infinite-trigger').scrollIntoViewIfNeeded();
      await secondPage;
      await page.waitForFunction(
        (n) => document.querySelectorAll('[data-testid="profile-card"]').length > n,
        PAGE_SIZE,
      );
      await shot('3-page-2');

      // Open the first profile of page 2.
      const card = cards.nth(PAGE_SIZE);
      const name = (await card.locator('.card__name-text').innerText()).trim();
      await card.click();
      await page.waitForURL(/\/profile\/\d+$/);
      const heading = page.getByTestId('profile-name');
      await heading.waitFor();
      await expect(heading).toHaveText(name, { useInnerText: true });
      await expect(page.locator('body')).toHaveId('profile-page');
      await page.waitForFunction((n) => document.title.includes(n), name);
      await page.evaluate(() => window.scrollTo(0, 0));
      await shot('4-profile');
    });
  });
}

test.describe(() => {
  test.use({ viewport: PHONE });
  test('menu and search on a phone @375x812', async ({ page, baseUrl, shot }) => {
    // A directory screen keeps the search box in the bar on a phone (issue 23, item 11); the menu is collapsed.
    await page.goto(`${baseUrl}/countries`);
    await page.getByTestId('country-list').waitFor();
    const toggle = page.getByRole('button', { name: 'Menu' });
    const search = page.getByRole('searchbox', { name: 'Search profiles' });
    const join = page.getByRole('link', { name: 'Escort? Join Now' });
    await search.waitFor();
    await expect(join, 'the menu starts collapsed on a phone').toBeHidden();
    await toggle.click();
    await join.waitFor();
    await expect(page.getByRole('button', { name: 'Logout' }), 'a visitor has no logout').toHaveCount(0);
    await shot('1-menu-open');
    await toggle.click();
    await expect(join).toBeHidden();

    // Fewer than 3 trimmed characters: nothing happens.
    await search.fill('  ab ');
    await search.press('Enter');
    await page.waitForTimeout(300);
    assert.ok(page.url().endsWith('/countries'));

    await search.fill('  anna ');
    await search.press('Enter');
    await page.waitForURL('**/search?q=anna');
    await page.getByRole('heading', { name: 'Results for “anna”' }).waitFor();
    await page.getByTestId('profile-grid').or(page.getByText('No listed profile matches')).first().waitFor();
    await expect(search, 'the search page holds the query to refine').toHaveValue('anna');
    await shot('2-searched');

    // On load the box takes its text from q.
    await page.reload();
    await expect(search).toHaveValue('anna');

    // Elsewhere the search box is behind the menu, and searching collapses the menu again (spec section 2).
    await page.goto(`${baseUrl}/help`);
    await expect(search, 'behind the menu off the directory screens').toBeHidden();
    await toggle.click();
    await search.fill('emma');
    await search.press('Enter');
    await page.waitForURL('**/search?q=emma');
    await expect(join, 'searching collapses the menu').toBeHidden();
    await expect(search).toHaveValue('emma');
  });
});
