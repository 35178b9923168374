// The share bar of spec section 2: each network in a 500 x 500 popup centred on the window (window.open
// is intercepted), Copy URL with its two messages, the Tumblr counter (through our server; hidden when
// there is no count, shortened with k/m/g when there is), and the button style change at 768 px.
import assert from 'node:assert/strict';
import { expect, PHONE, test } from '../harness';
import { acceptedNotice, busiestCountry, openList, waitForModalProfile } from './directory-helpers';

test.use({ viewport: PHONE });

interface Opened {
  url: string;
  target: string;
  features: string;
}

test('directory: share bar popups, copy messages, Tumblr counter @375x812', async ({ page, baseUrl, shot }) => {
  await acceptedNotice(page);
  // Our server finds no count (the test network has no Tumblr; this makes it certain and quick). The
  // browser never talks to Tumblr itself (docs/decisions/0805).
  let tumblrAsked = 0;
  let tumblrDirect = 0;
  await page.route('**/api/share/tumblr?**', (route) => {
    tumblrAsked += 1;
    return route.fulfill({ contentType: 'application/json', body: JSON.stringify({ count: null }) });
  });
  await page.route('https://api.tumblr.com/**', (route) => {
    tumblrDirect += 1;
    return route.abort('failed');
  });
  await page.addInitScript(() => {
    const opened: Array<{ url: string; target: string; features: string }> = [];
    (window as unknown as { __opened: typeof opened }).__opened = opened;
    window.open = (url?: string | URL, target?: string, features?: string) => {
      opened.push({ url: String(url), target: target ?? '', features: features ?? '' });
      return { opener: window, closed: false } as unknown as Window;
    };
    // A phone's share sheet (Chromium on Linux has none): what the page hands it is recorded.
    const sheet: ShareData[] = [];
    (window as unknown as { __shared: ShareData[] }).__shared = sheet;
    Object.defineProperty(navigator, 'share', {
      configurable: true,
      value: (data: ShareData) => {
        sheet.push(data);
        return Promise.resolve();
      },
    });
  });

  const country = await busiestCountry(page, baseUrl);
  const items = await openList(page, baseUrl, `/escorts/${country.slug}`);
  await page.getByTestId('profile-card').first().locator('a').first().click();
  await waitForModalProfile(page, items[0].id);
  const bar = page.getByTestId('profile-modal').getByTestId('share-bar');
  // Not asked before the bar is on screen. (A short profile shows the bar at once: then it is asked.)
  await page.waitForTimeout(300);
  const seenAtOnce = await bar.evaluate((el) => el.getBoundingClientRect().top < window.innerHeight);
  assert.equal(tumblrAsked, seenAtOnce ? 1 : 0, `asked ${tumblrAsked} times with the bar seen: ${seenAtOnce}`);
  await bar.scrollIntoViewIfNeeded();
  // X is its logo with the name "Share on X", not a bare cross that reads as "close" on a phone.
  const xLink = bar.getByRole('link', { name: 'Share on X' });
  await expect(xLink).toHaveCount(1);
  await expect(xLink.locator('path'), 'the X logo, not a two-line cross').toHaveAttribute('d', /^[\s\S]{41,}$/);
  // ...and drawn: filled (its outline has stroke="none"), not blank (issue 23, item 10).
  assert.notEqual(await xLink.locator('path').evaluate((p) => getComputedStyle(p).fill), 'none');
  // A phone's own share sheet comes first, the spec's bar beside it.
  const first = bar.locator('li').first().locator('[data-network]');
  await expect(first).toHaveAttribute('data-network', 'native');
  await expect(first).toHaveText('Share…');
  await first.click();
  const sheet = await page.evaluate(() => (window as unknown as { __shared: ShareData[] }).__shared);
  assert.equal(sheet.length, 1);
  assert.equal(sheet[0].url, `${baseUrl}/profile/${items[0].id}`);
  assert.ok(sheet[0].title, 'the profile title goes with the address');
  await page.waitForTimeout(300);
  assert.equal(tumblrAsked, 1, 'the count is asked for once the bar is seen');
  await expect(bar.getByTestId('tumblr-count'), 'a failed count shows nothing').toHaveCount(0);
  assert.equal(tumblrDirect, 0, 'the page itself never asks Tumblr');
  await shot('1-share-bar');

  // Phone style: round icon buttons, labels for screen readers only.
  const x = bar.locator('[data-network="x"]');
  const box = (await x.boundingBox())!;
  assert.equal(Math.round(box.width), 44);
  assert.equal(Math.round(box.height), 44);

  const shared = `${baseUrl}/profile/${items[0].id}`;
  const expected = await page.evaluate(() => ({
    left: Math.round(window.screenX + (window.outerWidth - 500) / 2),
    top: Math.round(window.screenY + (window.outerHeight - 500) / 2),
  }));
  const networks: Array<[string, RegExp]> = [
    ['x', /^https:\/\/x\.com\/intent\/tweet\?url=/],
    ['whatsapp', /^https:\/\/api\.whatsapp\.com\/send\?text=/],
    ['telegram', /^https:\/\/t\.me\/share\/url\?url=/],
    ['tumblr', /^https:\/\/www\.tumblr\.com\/widgets\/share\/tool\?canonicalUrl=/],
  ];
  for (const [network, pattern] of networks) {
    await bar.locator(`[data-network="${network}"]`).click();
    const opened = await page.evaluate(() => (window as unknown as { __opened: Opened[] }).__opened.at(-1));
    assert.ok(opened, `${network} opened a popup`);
    assert.match(opened.url, pattern);
    assert.ok(opened.url.includes(encodeURIComponent(shared)), `${network} shares ${shared}: ${opened.url}`);
    assert.equal(opened.target, 'share');
    assert.match(opened.features, /(^|,)width=500(,|$)/);
    assert.match(opened.features, /(^|,)height=500(,|$)/);
    assert.match(opened.features, new RegExp(`left=${expected.left}(,|$)`));
    assert.match(opened.features, new RegExp(`top=${expected.top}(,|$)`));
  }
  await expect(page, 'the page itself stayed').toHaveURL((url) => url.pathname === `/profile/${items[0].id}`);
  // Email is a mailto: link (a popup would stay blank).
  await expect(bar.locator('[data-network="email"]')).toHaveAttribute(
    'href',
    /^mailto:\?subject=.+&body=.+profile%2F\d+/,
  );

  // Copy URL: success...
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
  await bar.getByRole('button', { name: 'Copy URL' }).click();
  const notice = page.getByTestId('notification-dialog');
  await notice.getByText('URL copied to clipboard.').waitFor();
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(shared);
  await shot('2-copied');
  await notice.getByRole('button', { name: 'OK' }).click();
  await notice.waitFor({ state: 'detached' });
  // ...and failure (no clipboard at all).
  await page.evaluate(() => {
    Object.defineProperty(navigator, 'clipboard', { value: undefined, configurable: true });
    document.execCommand = () => false;
  });
  await bar.getByRole('button', { name: 'Copy URL' }).click();
  await notice.getByText('Sorry, unable to copy to clipboard.').waitFor();
  await notice.getByRole('button', { name: 'OK' }).click();

  // A desktop (wide, fine pointer) keeps the spec's bar alone.
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(bar.locator('[data-network="native"]')).toHaveCount(0);
  await expect(bar.locator('[data-network="x"] path')).toBeVisible();
  await shot('3-desktop-bar');
});

test('directory: Tumblr counter shortened, share buttons from 768 px @375x812', async ({ page, baseUrl, shot }) => {
  await acceptedNotice(page);
  // Tumblr has a count this time (our server's answer, which it got from Tumblr's JSON stats).
  await page.route('**/api/share/tumblr?**', (route) => {
    const url = new URL(route.request().url());
    assert.match(url.searchParams.get('url') ?? '', /\/profile\/\d+$/);
    return route.fulfill({ contentType: 'application/json', body: JSON.stringify({ count: 1234 }) });
  });
  const country = await busiestCountry(page, baseUrl);
  const items = await openList(page, baseUrl, `/escorts/${country.slug}`);
  await page.goto(`${baseUrl}/profile/${items[0].id}`);
  const bar = page.getByTestId('share-bar');
  await bar.scrollIntoViewIfNeeded();
  const count = bar.getByTestId('tumblr-count');
  await expect(count).toHaveText(/^1\.2k/);
  await shot('1-counter-phone');

  // At 768 px and wider the buttons carry their names.
  await page.setViewportSize({ width: 768, height: 900 });
  await bar.scrollIntoViewIfNeeded();
  const x = bar.locator('[data-network="x"]');
  const width = async () => (await x.boundingBox())?.width ?? 0;
  await expect.poll(width).toBeGreaterThan(44);
  await expect(x.getByText('X', { exact: true })).toBeVisible();
  await expect(bar.getByText('Copy URL')).toBeVisible();
  await shot('2-wide');
  await page.setViewportSize({ width: 767, height: 900 });
  await expect.poll(async () => Math.round(await width())).toBe(44);
});
