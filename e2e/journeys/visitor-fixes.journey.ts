// Visitor defects of issue 23 found at 375 px: the search box on the directory screens (not behind the
// menu), a word when the text is too short, the results page refining its query (item 11); the icons
// and web app manifest (item 13).
import assert from 'node:assert/strict';
import { DESKTOP, expect, PHONE, test } from '../harness';
import { acceptedNotice, appTookOver, busiestCountry, openList } from './directory-helpers';

test.describe('phone', () => {
  test.use({ viewport: PHONE });

  test('visitor: search box on the directory screens, too-short message, refined results @375x812', async ({
    page,
    baseUrl,
    shot,
  }) => {
    await acceptedNotice(page);
    const country = await busiestCountry(page, baseUrl);
    const items = await openList(page, baseUrl, `/escorts/${country.slug}`);
    // In the bar itself, the menu closed.
    const box = page.getByRole('search', { name: 'Search profiles' });
    await expect(page.getByRole('button', { name: 'Menu' })).toHaveAttribute('aria-expanded', 'false');
    await expect(box.getByRole('searchbox')).toBeVisible();
    const inView = await box.evaluate((el) => el.getBoundingClientRect().bottom <= window.innerHeight);
    assert.ok(inView, 'the box is on the first screen');
    await shot('1-directory-with-search');

    // Two characters: nothing is searched, and the box says why.
    await box.getByRole('searchbox').fill('ab');
    await box.getByRole('searchbox').press('Enter');
    await expect(box.getByTestId('search-message')).toHaveText('Type at least 3 characters.');
    await expect(box.getByRole('searchbox')).toHaveAttribute('aria-invalid', 'true');
    await expect(page).toHaveURL((url) => url.pathname === `/escorts/${country.slug}`);
    await shot('2-too-short');
    // Typing again clears the word.
    await box.getByRole('searchbox').fill('abc');
    await expect(box.getByTestId('search-message')).toHaveText('');

    // A name from the list finds its profile; the results page keeps the box with the query to refine.
    const name = items[0].name;
    await box.getByRole('searchbox').fill(name.slice(0, 3));
    await box.getByRole('searchbox').press('Enter');
    await expect(page).toHaveURL((url) => url.pathname === '/search' && url.searchParams.get('q') === name.slice(0, 3));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Results for “${name.slice(0, 3)}”`);
    await expect(box.getByRole('searchbox')).toHaveValue(name.slice(0, 3));
    await box.getByRole('searchbox').fill(name);
    await box.getByRole('searchbox').press('Enter');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Results for “${name}”`);
    await expect(page.getByTestId('profile-card').first()).toBeVisible();
    await shot('3-refined');

    // Loaded directly, the results page shows its query in the box too; other screens keep it in the menu.
    await page.goto(`${baseUrl}/search?q=${encodeURIComponent(name)}`);
    await appTookOver(page);
    await expect(box.getByRole('searchbox')).toHaveValue(name);
    await page.goto(`${baseUrl}/shop`);
    await expect(page.getByRole('search', { name: 'Search profiles' })).toBeHidden();
  });
});

test.describe('desktop', () => {
  test.use({ viewport: DESKTOP });

  test('visitor: favicon, icons and web app manifest @1280x800', async ({ page, baseUrl }) => {
    await acceptedNotice(page);
    const favicon = await page.request.get(`${baseUrl}/favicon.ico`);
    assert.equal(favicon.status(), 200);
    assert.match(favicon.headers()['content-type'] ?? '', /icon/);
    await page.goto(`${baseUrl}/`);
    const href = await page.locator('link[rel="manifest"]').getAttribute('href');
    assert.equal(href, '/manifest.webmanifest');
    const res = await page.request.get(`${baseUrl}${href}`);
    assert.equal(res.status(), 200);
    assert.match(res.headers()['content-type'] ?? '', /manifest\+json|json/);
    const manifest = (await res.json()) as { icons: Array<{ src: string; type: string }> };
    for (const icon of manifest.icons) {
      const file = await page.request.get(`${baseUrl}${icon.src}`);
      assert.equal(file.status(), 200, icon.src);
      assert.equal(file.headers()['content-type']?.split(';')[0], icon.type, icon.src);
    }
    // The browser itself reads the icons the page names.
    const icons = await page
      .locator('link[rel="icon"], link[rel="apple-touch-icon"]')
      .evaluateAll((links) => links.map((l) => (l as HTMLLinkElement).href));
    assert.equal(icons.length, 3);
    for (const icon of icons) assert.equal((await page.request.get(icon)).status(), 200, icon);
  });
});
