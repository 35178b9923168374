// axe-core on about ten page types (issue 23, item 12): the visitor's screens, an advertiser's edit
// screens and the admin's, at 375 px. Every WCAG A/AA rule and the best-practice rules axe ships (heading
// order, unique landmarks among them): no violation of any impact. axe-core comes from the npm dev
// dependency @axe-core/playwright and is injected into the page; nothing is downloaded at run time.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { expect, PHONE, test } from '../harness';
import { newAdvertiser, signInAsAdmin } from './admin-helpers';
import { acceptedNotice, appTookOver, busiestCountry, openList } from './directory-helpers';

test.use({ viewport: PHONE });

async function violations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
    .analyze();
  return result.violations.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help}\n      ${v.nodes
        .slice(0, 4)
        .map((n) => n.target.join(' '))
        .join('\n      ')}`,
  );
}

async function check(page: Page, name: string, shot: (step: string) => Promise<string>) {
  // Settled: no spinner, the first screen's requests done.
  await page.waitForLoadState('networkidle');
  await shot(name);
  expect(await violations(page), `axe on ${name} (${page.url()})`).toEqual([]);
}

test('accessibility: axe finds nothing on visitor pages @375x812', async ({ page, baseUrl, shot }) => {
  await acceptedNotice(page);
  const country = await busiestCountry(page, baseUrl);
  await page.goto(`${baseUrl}/`);
  await appTookOver(page);
  await check(page, '1-home', shot);
  const items = await openList(page, baseUrl, `/escorts/${country.slug}`);
  await check(page, '2-directory', shot);
  await page.goto(`${baseUrl}/countries`);
  await page.getByTestId('country-list').waitFor();
  await check(page, '3-countries', shot);
  await page.goto(`${baseUrl}/profile/${items[0].id}`);
  await appTookOver(page);
  await page.getByTestId('profile').first().waitFor();
  await check(page, '4-profile', shot);
  await page.goto(`${baseUrl}/search?q=${encodeURIComponent(items[0].name.slice(0, 4))}`);
  await appTookOver(page);
  await page.getByTestId('profile-card').first().waitFor();
  await check(page, '5-search', shot);
  await page.goto(`${baseUrl}/login`);
  await page.getByRole('button', { name: 'Log in' }).waitFor();
  await check(page, '6-login', shot);
});

test('accessibility: axe finds nothing on edit pages @375x812', async ({ browser, baseUrl, shot }) => {
  const advertiser = await newAdvertiser(browser, baseUrl, 'axe', { complete: true, viewport: PHONE });
  const page = advertiser.page;
  try {
    await page.goto(`${baseUrl}/edit/${advertiser.id}`);
    await page.getByTestId('edit-menu').waitFor();
    await check(page, '1-edit', shot);
    await page.goto(`${baseUrl}/edit/${advertiser.id}?edit=about`);
    await page.getByTestId('section-about').waitFor();
    await check(page, '2-edit-section', shot);
    await page.goto(`${baseUrl}/edit/media/${advertiser.id}`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await check(page, '3-media', shot);
    await page.goto(`${baseUrl}/edit/account/${advertiser.id}`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await check(page, '4-account', shot);
  } finally {
    await advertiser.context.close();
  }
});

test('accessibility: axe finds nothing on admin pages @375x812', async ({ page, baseUrl, shot }) => {
  await signInAsAdmin(page, baseUrl);
  for (const [name, path] of [
    ['1-overview', '/admin/overview'],
    ['2-users', '/admin/users'],
    ['3-verify', '/admin/verify'],
    ['4-auto-topup', '/admin/auto-topup'],
  ] as const) {
    await page.goto(`${baseUrl}${path}`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await check(page, name, shot);
  }
});

/** What has the focus: its test id, data-network or its text, enough to tell the opener. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return 'body';
    return `${el.tagName.toLowerCase()}|${el.getAttribute('data-testid') ?? ''}|${el.getAttribute('href') ?? ''}|${el.getAttribute('aria-label') ?? ''}`;
  });

test('accessibility: focus returns to the opener, Escape closes the menu @375x812', async ({ page, baseUrl, shot }) => {
  await acceptedNotice(page);
  const country = await busiestCountry(page, baseUrl);
  const items = await openList(page, baseUrl, `/escorts/${country.slug}`);

  // The menu: Escape closes it and leaves the focus on its button.
  const toggle = page.getByRole('button', { name: 'Menu' });
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await page.locator('#main-menu a').first().focus();
  await page.keyboard.press('Escape');
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(toggle).toBeFocused();

  // Open on the phone, then the window grows past the narrow breakpoint (a rotation): once its size has
  // settled the menu closes, and turning back finds it closed (decision 0955).
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await page.setViewportSize({ width: 812, height: 375 });
  // The toggle itself is hidden at this width.
  const hiddenToggle = page.getByRole('button', { name: 'Menu', includeHidden: true });
  await expect(hiddenToggle).toHaveAttribute('aria-expanded', 'false');
  await page.setViewportSize({ width: 375, height: 812 });
  await expect(page.locator('#main-menu')).toBeHidden();

  // The profile modal, opened from a card by keyboard: Escape gives the focus back to that card.
  let withGallery = items[0];
  for (const item of items.slice(0, 12)) {
    const res = await page.request.get(`${baseUrl}/api/getProfile/${item.id}`);
    const { profile } = (await res.json()) as { profile: { gallery: unknown[] } };
    if (profile.gallery.length > 0) {
      withGallery = item;
      break;
    }
  }
  const card = page.locator(`[data-testid="profile-card"][data-id="${withGallery.id}"] a`).first();
  await card.focus();
  const opener = await focused(page);
  await page.keyboard.press('Enter');
  const modal = page.getByTestId('profile-modal');
  await modal.getByTestId('profile').waitFor();
  await page.keyboard.press('Escape');
  await expect(modal).toHaveCount(0);
  await expect.poll(() => focused(page), 'the card that opened the modal').toBe(opener);

  // The lightbox inside the modal: closing it returns to its thumbnail.
  await page.keyboard.press('Enter');
  await modal.getByTestId('profile-gallery').waitFor();
  await expect(modal.getByTestId('profile-gallery')).toHaveAttribute('data-gallery', 'ready');
  const thumb = modal.getByTestId('profile-gallery').locator('a').first();
  await thumb.focus();
  const thumbId = await focused(page);
  await page.keyboard.press('Enter');
  const viewer = page.getByTestId('gallery-viewer');
  await viewer.waitFor();
  await shot('focus-1-lightbox');
  await page.keyboard.press('Escape');
  await expect(viewer).toHaveCount(0);
  await expect.poll(() => focused(page), 'the thumbnail that opened the viewer').toBe(thumbId);

  // The bookmark confirm: cancelled, the focus is back on the bookmark button.
  const bookmark = modal.getByTestId('bookmark-button');
  await bookmark.focus();
  const bookmarkId = await focused(page);
  await page.keyboard.press('Enter');
  const dialog = page.getByTestId('confirm-dialog');
  await dialog.getByRole('heading', { name: 'Bookmark?' }).waitFor();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  await expect.poll(() => focused(page), 'the bookmark button').toBe(bookmarkId);
  await shot('focus-2-after-confirm');
});
