// Tours at 375 px (issue 23, items 1 and 2; docs/decisions/0403): an advertiser listed in Leeds loads
// credits, goes from the Shop's "Choose a city" to the listings screen, picks Manchester and tour dates,
// sees the price and the 30 days, adds it to the cart and pays it, sees the new location with its days
// left, and is listed in Manchester "In Manchester <dates>"; moved to later dates the card announces the
// tour instead ("Visiting from"); a renewal of the location (30 more days, dates not kept) reaches the cart.
import { expect, PHONE, test } from '../harness';
import { api, fitsWidth, startAsListedAdvertiser, payByCard, type City } from './advertiser-helpers';

test.use({ viewport: PHONE });

const DAY_MS = 86_400_000;
/** A calendar day `n` days from today (UTC: the server's cities here are in Europe/London). */
const day = (n: number) => new Date(Date.now() + n * DAY_MS).toISOString().slice(0, 10);
const dayMonth = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', timeZone: 'UTC' });

test('tours: buy a location with tour dates from the Shop, pay it, listed on tour in that city @375x812', async ({
  page,
  baseUrl,
  shot,
}) => {
  const me = await startAsListedAdvertiser(page, baseUrl, 'tours', 'Leeds');
  const [manchester] = ((await api(page, '/edit/findCities?q=Manchester&country=GB')) as { data: City[] }).data;

  // Credits first, by card: the location is then paid from the balance.
  await page.goto(`${baseUrl}/edit/load/${me.id}`);
  await payByCard(page, '20', '4242 4242 4242 4242');
  await page.getByTestId('payment-outcome').and(page.locator('[data-status="loaded"]')).waitFor();

  // The Shop's "Choose a city" opens the purchase of a location, not the home-city form.
  await page.goto(`${baseUrl}/shop`);
  const buy = page.locator('[data-product="additional_location"]').getByTestId('product-buy');
  // Until the signed-in state has loaded, the Shop's button still leads a visitor to /register.
  await expect(buy).not.toHaveAttribute('href', '/register');
  await buy.click();
  await page.waitForURL(new RegExp(`/edit/directory/listing/${me.id}\\?add=1$`));
  const form = page.getByTestId('add-location');
  await form.waitFor();
  await expect(page.getByTestId('form-location')).toHaveCount(0);
  await form.getByRole('combobox', { name: 'City' }).fill('Manches');
  await form.getByRole('button', { name: 'Manchester United Kingdom' }).click();
  await form.getByTestId('city-chosen').getByText('Manchester').waitFor();
  await form.getByLabel('From').fill(day(0));
  await form.getByLabel('Until').fill(day(3));
  await form.getByTestId('add-location-price').getByText('€15.00 for 30 days').waitFor();
  await form
    .getByText(`until ${dayMonth.format(new Date(day(3)))}`, { exact: false })
    .first()
    .waitFor();
  await shot('1-add-location');
  await fitsWidth(page, 'the add-a-location form');

  await form.getByRole('button', { name: 'Add to cart' }).click();
  await page.waitForURL(/\/checkout\/cart$/);
  await page.getByTestId('cart-item').and(page.locator('[data-product="additional_location"]')).waitFor();
  await page.getByTestId('summary-amountToPay').getByText('€0.00').waitFor();
  await shot('2-cart');
  await page.getByTestId('pay-balance').click();
  await page.getByTestId('payment-outcome').and(page.locator('[data-status="paid"]')).waitFor();

  // The new location with its days left, today included (issue 23 item 4): the tour's 4 days, to its last.
  await page.goto(`${baseUrl}/edit/directory/listing/${me.id}`);
  const extra = page.getByTestId('listing-additional');
  await extra.getByText('Manchester').waitFor();
  await expect(extra.getByTestId('days-left')).toHaveText('4 days left');
  await expect(extra.getByTestId('last-day')).toContainText(`Ends on ${dayMonth.format(new Date(day(3)))}`);
  await shot('3-listings');
  await fitsWidth(page, '/edit/directory/listing');

  // Listed in Manchester, on tour with its dates.
  const cityPath = `/escorts/${manchester.country_slug}/${manchester.slug}`;
  const range = dayMonth.formatRange(new Date(day(0)), new Date(day(3)));
  await page.goto(`${baseUrl}${cityPath}`);
  const card = page.getByTestId('profile-grid').first().locator(`[data-testid="profile-card"][data-id="${me.id}"]`);
  await expect(card.getByTestId('card-tour')).toHaveText(`In Manchester ${range}`);
  await shot('4-on-tour-in-manchester');
  await fitsWidth(page, 'the city page');

  // Dates moved later: the card announces the tour until it starts.
  await page.goto(`${baseUrl}/edit/directory/listing/${me.id}`);
  await extra.getByRole('button', { name: 'Change the dates' }).click();
  await extra.getByLabel('From').fill(day(2));
  await extra.getByRole('button', { name: 'Save dates' }).click();
  await extra
    .getByText(dayMonth.format(new Date(day(2))), { exact: false })
    .first()
    .waitFor();
  await page.goto(`${baseUrl}${cityPath}`);
  await expect(card.getByTestId('card-tour')).toHaveText(`Visiting from ${dayMonth.format(new Date(day(2)))}`);
  await shot('5-visiting-from');

  // Renewing the location: 30 more days, through the same form and the cart.
  await page.goto(`${baseUrl}/edit/directory/listing/${me.id}`);
  await extra.getByTestId('listing-renew').click();
  const renew = page.getByTestId('add-location');
  await renew.getByRole('heading', { name: 'Renew Manchester' }).waitFor();
  // 30 more days after the paid ones, at its position; the old dates are not kept (the listing would
  // still end with the tour), so the renewal lists it for the whole period unless dates are given.
  await renew.getByText('Adds 30 days to Manchester after', { exact: false }).waitFor();
  await expect(renew.getByLabel('Until')).toHaveValue('');
  await shot('6-renew');
  await renew.getByRole('button', { name: 'Add to cart' }).click();
  await page.waitForURL(/\/checkout\/cart$/);
  await page.getByTestId('cart-item').and(page.locator('[data-product="additional_location"]')).waitFor();
});
