// Layout defects a first-time visitor saw (issue 9.9): the home page says "adults only" twice (the
// notice and the footer), promises only what is true, shows no build id, lines up its country cards;
// a signed-in menu fits one row at 1280 px.
import assert from 'node:assert/strict';
import { DESKTOP, expect, PHONE, test } from '../harness';
import { registerViaApi } from './auth-helpers';
import { appTookOver, pageHelpers } from './directory-helpers';

test.use({ viewport: PHONE });

test('layout: home page statement, claims, build id and country cards @375x812', async ({ page, baseUrl, shot }) => {
  await pageHelpers(page);
  await page.goto(`${baseUrl}/`);
  await page.getByTestId('top-countries').waitFor();
  // The 18+ notice comes with the app, after the server's first HTML.
  await appTookOver(page);
  await page.getByTestId('adult-notice').waitFor();
  const statements = await page.getByText('This site only lists adults', { exact: false }).count();
  assert.equal(statements, 2, 'the 18+ notice and the footer say it; the hero does not repeat it');
  await expect(page.locator('.hero')).not.toHaveText(/verified profiles/i, { useInnerText: true });

  const footer = page.locator('footer.footer');
  await expect(footer, 'no build id as visible text').not.toHaveText(/\bv [0-9a-f]{7}/, { useInnerText: true });
  await expect(footer, 'the build id stays in the HTML').toHaveAttribute('data-build', /^[0-9a-z-]+$/);

  // Cards of one row are equally tall, even when a country name wraps.
  const boxes = await page
    .locator('[data-testid="top-countries"] .country-card')
    .evaluateAll((cards) =>
      cards.map((c) => c.getBoundingClientRect()).map((r) => ({ top: Math.round(r.top), h: r.height })),
    );
  const rows = new Map<number, number[]>();
  for (const b of boxes) rows.set(b.top, [...(rows.get(b.top) ?? []), b.h]);
  for (const [top, heights] of rows)
    assert.equal(new Set(heights).size, 1, `row at ${top}: heights ${heights.join(', ')}`);
  await shot('1-home');
});

test.describe(() => {
  test.use({ viewport: DESKTOP });
  test('layout: a signed-in menu fits one row @1280x800', async ({ page, baseUrl, shot }) => {
    await pageHelpers(page);
    await page.addInitScript(() => window.localStorage.setItem('adult-notice', 'accepted'));
    await page.goto(`${baseUrl}/countries`);
    await page.getByTestId('country-list').waitFor();
    await registerViaApi(page, 'layout');
    await page.goto(`${baseUrl}/countries`);
    const links = page.locator('nav.nav .nav__link');
    await page.locator('nav.nav .nav__link--logout').waitFor();
    const tops = await links.evaluateAll((all) =>
      all.filter((a) => (a as HTMLElement).offsetParent !== null).map((a) => Math.round(a.getBoundingClientRect().top)),
    );
    assert.ok(tops.length >= 10, `browse and account links are shown (${tops.length})`);
    assert.equal(new Set(tops).size, 1, `one row of links, found rows at ${[...new Set(tops)].join(', ')}`);
    await shot('1-menu');
  });
});
