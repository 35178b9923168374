// Tours ahead at 375 px (issue 27 item 4, decision 0323): an advertiser listed in Leeds pays a tour of
// Manchester starting in 3 days; Manchester's page shows her below its advertisers under "Visiting in the
// next 14 days" with her dates; the feed's new tour links to that section; her profile marks the tour as
// coming.
import { expect, PHONE, test } from '../harness';
import { api, payByCard, startAsListedAdvertiser, type City } from './advertiser-helpers';

test.use({ viewport: PHONE });

const DAY_MS = 86_400_000;
const day = (n: number) => new Date(Date.now() + n * DAY_MS).toISOString().slice(0, 10);

test('tours ahead: a coming tour is on the city page below its advertisers, linked from the feed, marked on the profile @375x812', async ({
  page,
  baseUrl,
  shot,
}) => {
  const me = await startAsListedAdvertiser(page, baseUrl, 'ahead', 'Leeds');
  const [manchester] = ((await api(page, '/edit/findCities?q=Manchester&country=GB')) as { data: City[] }).data;
  await page.goto(`${baseUrl}/edit/load/${me.id}`);
  await payByCard(page, '20', '4242 4242 4242 4242');
  await page.getByTestId('payment-outcome').and(page.locator('[data-status="loaded"]')).waitFor();
  const cart = (await api(page, '/payment/addToCart', {
    uid: 'additional_location',
    city_id: manchester.id,
    from: day(3),
    until: day(5),
  })) as { data: { total: number } };
  await api(page, '/payment/makePayment', {
    method: 'balance',
    idempotency_key: `ahead-${me.id}`,
    expected_total: cart.data.total,
  });

  // The city page: below the list, her card with the dates of her visit.
  await page.goto(`${baseUrl}/escorts/united-kingdom/manchester`);
  const ahead = page.getByTestId('tours-ahead');
  await ahead.getByRole('heading', { name: 'Visiting in the next 14 days' }).waitFor();
  const card = ahead.locator(`[data-testid="profile-card"][data-id="${me.id}"]`);
  await expect(async () => card.scrollIntoViewIfNeeded({ timeout: 2_000 })).toPass();
  await expect(card).toContainText('Visiting from');
  await shot('1-city-tours-ahead');

  // The feed's new tour links there, and the page scrolls to the section.
  await page.goto(`${baseUrl}/feed`);
  const entry = page.getByTestId('feed-tours').getByTestId('feed-tour-city').first();
  await expect(entry).toHaveText('See who visits Manchester soon');
  await entry.click();
  await page.waitForURL(/\/escorts\/united-kingdom\/manchester#tours-ahead$/);
  await expect(page.getByTestId('tours-ahead')).toBeInViewport();
  await shot('2-from-feed');

  // Her profile marks the tour as coming.
  await card.getByRole('link').first().click();
  await page.getByTestId('profile-tours').getByTestId('tour-coming').waitFor();
  await expect(page.getByTestId('profile-tours')).toContainText('Manchester');
  await page.getByTestId('profile-tours').scrollIntoViewIfNeeded();
  await shot('3-profile-coming');
});
