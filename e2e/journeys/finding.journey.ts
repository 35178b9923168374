// Finding the right person fast at 375 px (issue 27; docs/decisions/0320-0329): an advertiser switches
// "available now" on from her edit overview in one tap and sees the badge on her card in her city and on
// her profile; she shows her age, which her profile then gives as computed from her date of birth.
import { expect, PHONE, test } from '../harness';
import { fitsWidth, listedAdvertiser } from './advertiser-helpers';
import { acceptedNotice } from './directory-helpers';

test.use({ viewport: PHONE });

test('available now: one tap on the edit overview, the badge on the card and the profile @375x812', async ({
  page,
  baseUrl,
  shot,
}) => {
  await acceptedNotice(page);
  await page.goto(`${baseUrl}/countries`);
  await page.getByTestId('country-list').waitFor();
  const me = await listedAdvertiser(page, 'available', 'Leeds');

  await page.goto(`${baseUrl}/edit/${me.id}`);
  const fact = page.getByTestId('overview-available');
  await fact.getByText('Off').waitFor();
  await fact.scrollIntoViewIfNeeded();
  await shot('1-overview-off');
  await fact.getByTestId('available-on').click();
  await expect(fact.getByTestId('available-until')).toContainText('On until');
  await fact.scrollIntoViewIfNeeded();
  await shot('2-overview-on');
  await fitsWidth(page, 'the edit overview');

  await page.goto(`${baseUrl}/escorts/united-kingdom/${me.city.slug}`);
  const card = page.locator(`[data-testid="profile-card"][data-id="${me.id}"]`);
  await expect(card.getByTestId('card-available')).toHaveText('Available now');
  await card.scrollIntoViewIfNeeded();
  await shot('3-card-badge');
  await fitsWidth(page, 'the city page');

  await page.goto(`${baseUrl}/profile/${me.id}`);
  await expect(page.getByTestId('profile-available').first()).toHaveText('Available now');
  await shot('4-profile-badge');
  await fitsWidth(page, 'the profile');
});

test('age: shown from the edit overview in one tap, on the profile with its source @375x812', async ({
  page,
  baseUrl,
  shot,
}) => {
  await acceptedNotice(page);
  await page.goto(`${baseUrl}/countries`);
  await page.getByTestId('country-list').waitFor();
  const me = await listedAdvertiser(page, 'age', 'Leeds');
  // registerViaApi gives 1990-04-01 as the date of birth.
  const now = new Date();
  const years = now.getUTCFullYear() - 1990 - (now.getUTCMonth() < 3 ? 1 : 0);

  await page.goto(`${baseUrl}/profile/${me.id}`);
  await page.getByTestId('profile').first().waitFor();
  await expect(page.getByTestId('profile-age')).toHaveCount(0);

  await page.goto(`${baseUrl}/edit/${me.id}`);
  const fact = page.getByTestId('overview-age');
  await expect(fact.getByTestId('age-state')).toHaveText('Not shown.');
  await fact.getByTestId('age-toggle').click();
  await expect(fact.getByTestId('age-state')).toHaveText('Shown on your profile.');
  await fact.scrollIntoViewIfNeeded();
  await shot('1-overview-age-shown');
  await fitsWidth(page, 'the edit overview');

  await page.goto(`${baseUrl}/profile/${me.id}`);
  const age = page.getByTestId('profile-age').first();
  await expect(age).toHaveText(`${years} years old (from her date of birth at registration)`);
  await expect(page.getByTestId('profile').first()).not.toContainText('1990');
  await shot('2-profile-age');
  await fitsWidth(page, 'the profile');
});
