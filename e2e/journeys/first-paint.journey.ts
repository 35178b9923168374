// The first paint on a phone (issue 14, item 3; docs/decisions/0705-0707): home, a listing, a city,
// search and a profile arrive server-rendered in the SPA's own markup; the first listing images are
// preloaded and fetched first, sized, the rest lazy; the SPA takes the page over without anything
// moving (layout shifts summed as CLS, at most 0.05); the 18+ notice lies over the page and moves
// nothing when it shows or goes. Markup and layout only: timing is for bench/web-vitals.bench.ts.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { expect, PHONE, test } from '../harness';
import { busiestCountry, pageHelpers } from './directory-helpers';

test.use({ viewport: PHONE });

const CLS_BUDGET = 0.05;

/** Starts summing layout shifts (not caused by input) before the page's first byte. */
async function watchShifts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __cls: number; __shifts: string[] };
    w.__cls = 0;
    w.__shifts = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as Array<
        PerformanceEntry & { value: number; hadRecentInput: boolean; sources?: Array<{ node?: Node }> }
      >) {
        if (e.hadRecentInput) continue;
        w.__cls += e.value;
        w.__shifts.push(`${e.value.toFixed(4)} ${(e.sources ?? []).map((s) => s.node?.nodeName).join(',')}`);
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

async function shifts(page: Page): Promise<{ cls: number; list: string[] }> {
  return page.evaluate(() => {
    const w = window as unknown as { __cls: number; __shifts: string[] };
    return { cls: w.__cls, list: w.__shifts };
  });
}

/** The SPA has taken over: the server's #ssr is gone and the app's <main> is there. */
async function takenOver(page: Page): Promise<void> {
  await expect(page.locator('#ssr')).toHaveCount(0);
  await expect(page.locator('main#main')).toBeAttached();
  await page.waitForTimeout(1000); // late shifts: images, fonts, effects
}

/** The attributes of the <img> elements of a server page's first HTML, in order. */
function ssrImages(html: string): Array<Record<string, string>> {
  const ssr = html.slice(html.indexOf('<div id="ssr"'));
  return [...ssr.matchAll(/<img ([^>]*)>/g)].map(([, attrs]) =>
    Object.fromEntries([...attrs.matchAll(/([a-z-]+)="([^"]*)"/gi)].map(([, k, v]) => [k.toLowerCase(), v])),
  );
}

function preloads(html: string): string[] {
  return [...html.matchAll(/<link rel="preload" as="image"[^>]*>/g)].map(([tag]) => tag);
}

test('first paint: server HTML the SPA takes over without shifts, first images preloaded @375x812', async ({
  page,
  baseUrl,
  shot,
}) => {
  await pageHelpers(page);
  await watchShifts(page);
  await page.addInitScript(() => window.localStorage.setItem('adult-notice', 'accepted'));
  const country = await busiestCountry(page, baseUrl);
  const nav = (await (
    await page.request.post(`${baseUrl}/api/directory/getNavigation`, { data: { country: country.slug } })
  ).json()) as { places: Array<{ slug: string }> };
  const list = (await (
    await page.request.post(`${baseUrl}/api/directory/getDirectory`, { data: { country: country.slug } })
  ).json()) as { data: Array<{ id: number; avatar: { src: string; srcset: string; webp_srcset: string } | null }> };
  assert.ok(list.data.length > 4, 'the busiest country lists more than one screen of cards');

  // A listing's first HTML: the cards themselves, the first row fetched first and preloaded.
  const listingPath = `/escorts/${country.slug}`;
  const html = await (await page.request.get(baseUrl + listingPath)).text();
  assert.match(html, /<div id="ssr" class="ssr--framed">/);
  assert.match(html, /<script type="application\/json" id="ssr-state">/, 'the SPA gets the answers with the page');
  const images = ssrImages(html);
  assert.equal(images.length, list.data.filter((i) => i.avatar).length, 'one image per card with a photo');
  const pictures = list.data.flatMap((item) => (item.avatar ? [item.avatar] : []));
  for (const [i, img] of images.entries()) {
    assert.ok(Number(img.width) > 0 && Number(img.height) > 0, `image ${i} carries width and height`);
    // The stored picture's variants (uploads have several widths; the demo seed's pictures one).
    if (pictures[i].srcset) {
      assert.equal(img.srcset, pictures[i].srcset, `image ${i} carries its srcset`);
      assert.ok(img.sizes, `image ${i} carries sizes`);
    }
    if (i < 2) {
      assert.equal(img.fetchpriority, 'high', `image ${i} is fetched first`);
      assert.equal(img.loading, 'eager');
    } else assert.notEqual(img.fetchpriority, 'high', `image ${i} waits its turn`);
    if (i >= 4) assert.equal(img.loading, 'lazy', `image ${i} loads when scrolled near`);
  }
  const tags = preloads(html);
  assert.equal(tags.length, Math.min(2, images.length), 'the first row is preloaded');
  for (const [i, tag] of tags.entries()) {
    assert.match(tag, /fetchpriority="high"/);
    const set = pictures[i].webp_srcset || pictures[i].srcset;
    if (set) {
      assert.ok(tag.includes(`imagesrcset="${set}"`), `preload ${i}: the set the <picture> picks`);
      assert.match(tag, /imagesizes="[^"]+"/);
    } else assert.ok(tag.includes(`href="${images[i].src}"`), `preload ${i}: the image itself`);
  }

  // Home, the listing, a city, search and a profile: taken over without a shift, no console error.
  const profileId = list.data[0].id;
  const pages: Array<[string, string, string]> = [
    ['home', '/', '[data-testid="top-countries"]'],
    ['listing', listingPath, '[data-testid="profile-grid"]'],
    ['city', `${listingPath}/${nav.places[0].slug}`, '[data-testid="profile-grid"]'],
    ['search', '/search?q=london', '[data-testid="profile-grid"], .profile-list__status .empty'],
    ['profile', `/profile/${profileId}`, '[data-testid="profile"]'],
  ];
  for (const [name, path, ready] of pages) {
    const first = await (await page.request.get(baseUrl + path)).text();
    assert.match(first, /<div id="ssr" class="ssr--framed">/, `${name}: server-rendered in the app's markup`);
    await page.goto(baseUrl + path);
    await takenOver(page);
    await page.locator(ready).first().waitFor();
    const { cls, list: entries } = await shifts(page);
    assert.ok(cls <= CLS_BUDGET, `${name}: CLS ${cls.toFixed(3)} > ${CLS_BUDGET} (${entries.join('; ')})`);
    if (name === 'listing') {
      // The SPA's own cards keep the priorities of the server's.
      const spa = page.locator('[data-testid="profile-grid"] img');
      await expect(spa.nth(0)).toHaveAttribute('fetchpriority', 'high');
      await expect(spa.nth(0)).toHaveAttribute('loading', 'eager');
      await expect(spa.nth(4)).not.toHaveAttribute('fetchpriority');
      await expect(spa.nth(4)).toHaveAttribute('loading', 'lazy');
      await shot('1-listing');
    }
    if (name === 'profile') await shot('2-profile');
  }
});

test('first paint: the 18+ notice lies over the page and moves nothing @375x812', async ({ page, baseUrl, shot }) => {
  await pageHelpers(page);
  await watchShifts(page);
  const country = await busiestCountry(page, baseUrl);
  await page.goto(`${baseUrl}/escorts/${country.slug}`);
  await takenOver(page);
  const notice = page.getByTestId('adult-notice');
  await expect(notice).toBeVisible();
  const heading = page.locator('h1.directory__title');
  const before = await heading.boundingBox();
  const box = await notice.boundingBox();
  assert.ok(box && before, 'notice and heading are laid out');
  assert.equal(Math.round(box.y + box.height), PHONE.height, 'the notice sits at the bottom of the screen');
  await expect(notice).toHaveCSS('position', 'fixed');
  await shot('1-notice');
  await notice.getByRole('button', { name: 'I am 18 or older' }).click();
  await notice.waitFor({ state: 'detached' });
  assert.deepEqual(await heading.boundingBox(), before, 'accepting it moves nothing');
  const { cls, list } = await shifts(page);
  assert.ok(cls <= CLS_BUDGET, `CLS ${cls.toFixed(3)} (${list.join('; ')})`);
});
