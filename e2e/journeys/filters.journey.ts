// Filters on a city's list at 375 px (issue 27 item 1; docs/decisions/0324): a visitor narrows the city by
// age, price and a service in the filter sheet, the address holds the filters (server-rendered, noindex,
// canonical the whole list), she opens the profile that matches and comes back to the same filtered list;
// an advertiser switches "available now" on and the "available now" filter finds her.
import { DESKTOP, expect, PHONE, test } from '../harness';
import { api, fitsWidth, startAsListedAdvertiser } from './advertiser-helpers';
import { waitForModalProfile } from './directory-helpers';

test.use({ viewport: PHONE });

test('filters: a city by age, price and a service, a matching profile, back to the same list @375x812', async ({
  page,
  baseUrl,
  shot,
}) => {
  const me = await startAsListedAdvertiser(page, baseUrl, 'filters', 'York');
  // registerViaApi gives 1990-04-01: 36 this year, shown; 150 GBP for an hour at hers; GFE.
  await api(page, '/update', {
    section: 'rates',
    currency: 'GBP',
    incall: { '60min': 150 },
    outcall: { '60min': 250 },
  });
  await api(page, '/update', { section: 'services', services: ['gfe', 'massage'] });
  await api(page, `/edit/setAttribute/${me.id}`, { attribute: 'show_age', value: true });
  // Another in York who does not show her age: the age filter leaves her out.
  await page.context().clearCookies();
  const other = await startAsListedAdvertiser(page, baseUrl, 'filters-other', 'York');
  await api(page, '/update', { section: 'rates', currency: 'GBP', incall: { '60min': 150 }, outcall: {} });
  await api(page, '/update', { section: 'services', services: ['gfe'] });
  await page.context().clearCookies();

  const cityPath = `/escorts/united-kingdom/${me.city.slug}`;
  await page.goto(`${baseUrl}${cityPath}`);
  const card = (id: number) => page.locator(`[data-testid="profile-card"][data-id="${id}"]`);
  await card(me.id).waitFor();
  await card(other.id).waitFor();

  // The sheet: age 30-40, 100-200 a hour in pounds (York's currency), girlfriend experience.
  const toggle = page.getByTestId('filter-toggle');
  await expect(toggle).toBeEnabled();
  await expect(async () => {
    await toggle.click();
    await page.getByTestId('filter-sheet').getByTestId('filter-form').waitFor({ timeout: 2_000 });
  }).toPass();
  const sheet = page.getByTestId('filter-sheet');
  await sheet.getByTestId('filter-age-min').fill('30');
  await sheet.getByTestId('filter-age-max').fill('40');
  await sheet.getByTestId('filter-price-min').fill('100');
  await sheet.getByTestId('filter-price-max').fill('200');
  await expect(sheet.getByTestId('filter-currency')).toHaveValue('GBP');
  await sheet.getByText('Services', { exact: true }).click();
  await sheet.getByTestId('filter-service-gfe').check();
  await shot('1-filter-sheet');
  await fitsWidth(page, 'the filter sheet');
  await sheet.getByTestId('filter-apply').click();

  await expect(page).toHaveURL(/age=30-40&price=100-200&currency=GBP&services=gfe$/);
  const filteredUrl = page.url();
  await expect(card(me.id)).toBeVisible();
  await expect(card(other.id)).toHaveCount(0);
  await expect(page.getByTestId('filter-chips')).toContainText('Age 30–40');
  await expect(page.getByTestId('filter-chips')).toContainText('100–200 GBP');
  await expect(page.getByTestId('filter-chips')).toContainText('Girlfriend experience');
  await expect(page.getByTestId('filter-total')).toHaveText('1 profile matches');
  await expect(page.getByTestId('filter-toggle')).toContainText('3');
  await shot('2-filtered-city');
  await fitsWidth(page, 'the filtered city page');

  // Her profile over the list, then back: the same filtered list.
  await expect(async () => {
    await card(me.id).locator('a').first().click({ timeout: 2_000 });
    await waitForModalProfile(page, me.id);
  }).toPass();
  await expect(page).toHaveURL(new RegExp(`/profile/${me.id}$`));
  await expect(page.getByTestId('profile-modal').getByTestId('profile-age').first()).toContainText('years old');
  await shot('3-matching-profile');
  await page.goBack();
  await page.getByTestId('profile-modal').waitFor({ state: 'detached' });
  expect(page.url()).toBe(filteredUrl);
  await expect(card(me.id)).toBeVisible();
  await expect(card(other.id)).toHaveCount(0);
  await expect(page.getByTestId('filter-chips')).toContainText('Age 30–40');
  await shot('4-back-to-filtered-list');

  // The address alone: server-rendered filtered, kept out of search engines, canonical the whole list.
  const html = await (await page.request.get(filteredUrl)).text();
  expect(html).toContain('<meta name="robots" content="noindex">');
  expect(html).toMatch(new RegExp(`<link rel="canonical" href="[^"?]*${cityPath}">`));
  expect(html).toContain(`data-id="${me.id}"`);
  expect(html).not.toContain(`data-id="${other.id}"`);

  // Nobody at 90: the empty state offers to widen the filter.
  await page.goto(`${baseUrl}${cityPath}?age=90-99&services=gfe`);
  const empty = page.getByTestId('filter-empty');
  await empty.waitFor();
  await expect(empty).toContainText('No profile here matches these filters.');
  await shot('5-empty-widen');
  await expect(async () => {
    await empty.getByRole('button', { name: 'Without “Age 90–99”' }).click({ timeout: 2_000 });
    await expect(page).toHaveURL(/\?services=gfe$/, { timeout: 2_000 });
  }).toPass();
  await expect(card(me.id)).toBeVisible();
  await expect(card(other.id)).toBeVisible();
});

test('filters: "available now" finds her once she switches it on @375x812', async ({ page, baseUrl, shot }) => {
  const me = await startAsListedAdvertiser(page, baseUrl, 'filters-now', 'York');
  const listUrl = `${baseUrl}/escorts/united-kingdom/${me.city.slug}?available=1`;
  const card = page.locator(`[data-testid="profile-card"][data-id="${me.id}"]`);

  await page.goto(listUrl);
  await page.getByTestId('infinite-trigger').waitFor({ state: 'attached' });
  await expect(page.getByTestId('filter-chips')).toContainText('Available now');
  await expect(card).toHaveCount(0);

  await page.goto(`${baseUrl}/edit/${me.id}`);
  const fact = page.getByTestId('overview-available');
  await fact.getByText('Off').waitFor();
  await fact.getByTestId('available-on').click();
  await expect(fact.getByTestId('available-until')).toContainText('On until');

  await page.goto(listUrl);
  await expect(card.getByTestId('card-available')).toHaveText('Available now');
  await expect(async () => card.scrollIntoViewIfNeeded({ timeout: 2_000 })).toPass();
  await shot('1-available-filter-finds-her');
  await fitsWidth(page, 'the filtered city page');
});

test.describe('wide screens', () => {
  test.use({ viewport: DESKTOP });

  test('filters: a bar above the list on a wide screen @1280x800', async ({ page, baseUrl, shot }) => {
    const me = await startAsListedAdvertiser(page, baseUrl, 'filters-wide', 'York');
    await api(page, '/update', { section: 'language', languages: ['en', 'it'] });
    await page.context().clearCookies();
    await page.goto(`${baseUrl}/escorts/united-kingdom/${me.city.slug}`);
    const card = page.locator(`[data-testid="profile-card"][data-id="${me.id}"]`);
    await card.waitFor();
    await expect(async () => {
      await page.getByTestId('filter-toggle').click();
      await page.getByTestId('filter-bar').waitFor({ timeout: 2_000 });
    }).toPass();
    const bar = page.getByTestId('filter-bar');
    await expect(page.getByTestId('filter-sheet')).toHaveCount(0);
    await bar.getByText('Languages spoken', { exact: true }).click();
    await bar.getByTestId('filter-language-it').check();
    await shot('1-filter-bar');
    await bar.getByTestId('filter-apply').click();
    await expect(page).toHaveURL(/\?speaks=it$/);
    await expect(card).toBeVisible();
    await expect(page.getByTestId('filter-chips')).toContainText('Speaks Italian');
    await shot('2-filtered-wide');
  });
});
