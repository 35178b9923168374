// Browsing as spec section 2 has it: /countries with counts, the list item label rule, category
// tabs, and the infinite scroll (first sighting of the trigger = page 1, each later sighting the next
// page, re-armed after a first-page reload). Then impressions: cards seen at least half on screen are
// flushed to POST /api/directory/impressions after 5 s of quiet.
import assert from 'node:assert/strict';
import type { Request } from 'playwright-core';
import { expect, PHONE, test } from '../harness';
import { acceptedNotice, busiestCountry, isDirectoryPage, openList, type ListItem } from './directory-helpers';

test.use({ viewport: PHONE });

const label = (city: string | null, place: string | null) => {
  const c = city?.trim();
  const p = place?.trim();
  if (c && p && c.toLowerCase() !== p.toLowerCase()) return `${c} - ${p}`;
  return c || p || '-';
};

test('directory: countries, labels, tabs, infinite scroll @375x812', async ({ page, baseUrl, shot }) => {
  await acceptedNotice(page);
  const country = await busiestCountry(page, baseUrl);

  // /countries: every country with its count.
  await page.goto(`${baseUrl}/countries`);
  const list = page.getByTestId('country-list');
  await list.waitFor();
  const link = list.locator(`a[href="/escorts/${country.slug}"]`);
  await expect(link).toHaveText(new RegExp(`${country.count} profiles?`));
  await shot('1-countries');

  // The list: labels follow "city - place" (or whichever is present, or "-").
  const items = await openList(page, baseUrl, `/escorts/${country.slug}`);
  const cards = page.getByTestId('profile-card');
  for (const [index, item] of items.slice(0, 6).entries()) {
    await expect(cards.nth(index).locator('.card__location')).toHaveText(label(item.user.city, item.user.place));
  }
  await shot('2-list');

  // Infinite scroll: page 2 on the next sighting of the trigger; at the end of the list, later
  // sightings ask for nothing more.
  const trigger = page.getByTestId('infinite-trigger');
  const second = page.waitForResponse(isDirectoryPage(2));
  await trigger.scrollIntoViewIfNeeded();
  const page2 = (await (await second).json()) as { data: ListItem[]; page: number; has_more: boolean };
  assert.equal(page2.page, 2);
  await expect.poll(() => cards.count()).toBeGreaterThanOrEqual(25);
  let pages = 2;
  let more = page2.has_more;
  while (more && pages < 4) {
    const next = page.waitForResponse(isDirectoryPage(pages + 1));
    await trigger.scrollIntoViewIfNeeded();
    more = ((await (await next).json()) as { has_more: boolean }).has_more;
    pages += 1;
  }
  if (!more) {
    await expect(page.getByText('You have seen every profile listed here.')).toBeVisible();
    let extra = 0;
    const count = (r: Request) => void (r.url().includes('/api/directory/getDirectory') && (extra += 1));
    page.on('request', count);
    await trigger.scrollIntoViewIfNeeded();
    await page.evaluate(() => window.scrollBy(0, -400));
    await trigger.scrollIntoViewIfNeeded();
    await page.waitForTimeout(400);
    page.off('request', count);
    assert.equal(extra, 0, 'nothing is asked for after the last page');
  }
  console.log(`    infinite scroll: ${pages} pages of ${country.slug} (${await cards.count()} cards)`);
  await shot('3-end-of-list');

  // A category tab starts its list again from page 1, and the still-visible trigger of the emptied
  // list does not skip to page 2 (re-armed after 250 ms).
  const requested: string[] = [];
  const track = (r: Request) => {
    if (r.url().includes('/api/directory/getDirectory')) requested.push(`${r.url().split('?')[1]} ${r.postData()}`);
  };
  page.on('request', track);
  const female = page.waitForResponse(isDirectoryPage(1));
  await page.evaluate(() => window.scrollTo(0, 0));
  await page
    .locator('.tabs')
    .getByRole('link', { name: /^Female/ })
    .click();
  await page.waitForURL(`**/female/${country.slug}`);
  const femaleItems = ((await (await female).json()) as { data: ListItem[] }).data;
  await page.locator(`[data-testid="profile-card"][data-id="${femaleItems[0].id}"]`).waitFor();
  await page.waitForTimeout(600);
  page.off('request', track);
  assert.deepEqual(
    requested.map((r) => r.split(' ')[0]),
    ['page=1'],
    `one request for the new category: ${requested.join(' | ')}`,
  );
  assert.match(requested[0], /"category":"female"/);
  await expect(page.locator('.tabs__tab[aria-current="page"]')).toHaveCount(1);
  await shot('4-female');
});

test('directory: impressions flushed after 5 s of quiet @375x812', async ({ page, baseUrl }) => {
  await acceptedNotice(page);
  const country = await busiestCountry(page, baseUrl);
  const path = `/escorts/${country.slug}`;
  const flushed = page.waitForRequest((r) => r.url().endsWith('/api/directory/impressions') && r.method() === 'POST', {
    timeout: 20_000,
  });
  await openList(page, baseUrl, path);
  // Scroll a few cards into view, then stay still.
  await page.getByTestId('profile-card').nth(5).scrollIntoViewIfNeeded();
  await page.waitForTimeout(100);
  const quietFrom = Date.now();
  const request = await flushed;
  const waited = Date.now() - quietFrom;
  const body = request.postDataJSON() as { impressions: Record<string, number[]> };
  console.log(`    impressions flushed ${waited} ms after the last scroll: ${JSON.stringify(body.impressions)}`);
  assert.ok(waited >= 4800, `flushed only after 5 s of quiet (${waited} ms)`);
  assert.deepEqual(Object.keys(body.impressions), [path]);
  const ids = body.impressions[path];
  // The first row was on screen at load; the cards half visible now were seen after the scroll.
  const cardIds = await page.getByTestId('profile-card').evaluateAll((els) =>
    els.map((el) => {
      const r = el.getBoundingClientRect();
      const visible = Math.max(0, Math.min(r.bottom, window.innerHeight) - Math.max(r.top, 0));
      return { id: Number(el.getAttribute('data-id')), half: visible >= r.height / 2 };
    }),
  );
  const expected = [cardIds[0].id, cardIds[1].id, ...cardIds.filter((c) => c.half).map((c) => c.id)];
  for (const id of expected) assert.ok(ids.includes(id), `card ${id} counted`);
  assert.ok(ids.length < 24, `only cards seen are counted (${ids.length})`);
  assert.equal(new Set(ids).size, ids.length, 'each id once');
  const answer = await (await request.response())!.json();
  assert.ok(answer.counted >= 1);

  // Leaving the page before the 5 s are up sends what is pending at once (pagehide) with a keepalive
  // fetch that outlives the page. Playwright does not report requests of an unloading page, so the
  // page notes its own call in localStorage (the server log shows it arriving).
  await page.addInitScript(() => {
    const original = window.fetch;
    window.fetch = (input, init) => {
      if (String(input).endsWith('/api/directory/impressions')) {
        window.localStorage.setItem(
          'e2e-impressions',
          JSON.stringify({ keepalive: init?.keepalive, body: init?.body }),
        );
      }
      return original(input, init);
    };
  });
  await openList(page, baseUrl, `${path}?from=e2e`);
  await page.waitForTimeout(500);
  await page.goto(`${baseUrl}/countries`);
  await page.getByTestId('country-list').waitFor();
  const sent = JSON.parse((await page.evaluate(() => window.localStorage.getItem('e2e-impressions'))) ?? 'null') as {
    keepalive: boolean;
    body: string;
  } | null;
  assert.ok(sent, 'leaving the list sent the pending impressions');
  assert.equal(sent.keepalive, true);
  assert.deepEqual(Object.keys((JSON.parse(sent.body) as { impressions: object }).impressions), [`${path}?from=e2e`]);
});
