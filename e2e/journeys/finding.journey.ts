// Finding the right person fast at 375 px (issue 27; docs/decisions/0320-0329): an advertiser switches
// "available now" on from her edit overview in one tap and sees the badge on her card in her city and on
// her profile; she shows her age, which her profile then gives as computed from her date of birth; her
// messengers are one-tap buttons beside call and text, each tap counted as a reveal.
import { expect, PHONE, test } from '../harness';
import { api, fitsWidth, startAsListedAdvertiser } from './advertiser-helpers';

test.use({ viewport: PHONE });

test('available now: one tap on the edit overview, the badge on the card and the profile @375x812', async ({
  page,
  baseUrl,
  shot,
}) => {
  const me = await startAsListedAdvertiser(page, baseUrl, 'available', 'Leeds');

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
  // The server's card may be replaced by the app's while it scrolls: the same card again, until it holds.
  await expect(async () => card.scrollIntoViewIfNeeded({ timeout: 2_000 })).toPass();
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
  const me = await startAsListedAdvertiser(page, baseUrl, 'age', 'Leeds');
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

test('one-tap contact: text, WhatsApp, Telegram and Signal beside the call button, each a reveal @375x812', async ({
  page,
  baseUrl,
  shot,
}) => {
  const me = await startAsListedAdvertiser(page, baseUrl, 'contact', 'Leeds');
  await api(page, '/update', {
    section: 'links',
    links: {
      messenger: { whatsapp: '+44 113 496 0999', telegram: '@imogen_leeds', signal: 'yes' },
      social: {},
      crypto: {},
    },
  });

  await page.goto(`${baseUrl}/profile/${me.id}`);
  // The app's screen, not the server's first paint, whose links have no handlers yet (a tap there
  // counts no reveal): the comments are the app's.
  await page.getByTestId('comments').waitFor();
  const contacts = page.getByTestId('profile-contacts').first();
  await expect(contacts.getByTestId('contact-sms')).toHaveAttribute('href', 'sms:+441134960000');
  await expect(contacts.getByTestId('contact-whatsapp')).toHaveAttribute('href', 'https://wa.me/441134960999');
  await expect(contacts.getByTestId('contact-telegram')).toHaveAttribute('href', 'https://t.me/imogen_leeds');
  // "yes" is no number: Signal opens with her phone.
  await expect(contacts.getByTestId('contact-signal')).toHaveAttribute('href', 'https://signal.me/#p/+441134960000');
  await expect(async () => contacts.scrollIntoViewIfNeeded({ timeout: 2_000 })).toPass();
  await shot('1-contact-buttons');
  await fitsWidth(page, 'the profile');

  // A tap opens the app (here a stand-in page) and counts a reveal.
  await page
    .context()
    .route('https://wa.me/**', (route) => route.fulfill({ body: 'WhatsApp', contentType: 'text/plain' }));
  const reveal = page.waitForRequest(
    (r) => r.url().endsWith(`/api/directory/phoneReveal/${me.id}`) && r.method() === 'POST',
  );
  const popup = page.waitForEvent('popup');
  await contacts.getByTestId('contact-whatsapp').click();
  await reveal;
  expect((await popup).url()).toBe('https://wa.me/441134960999');
});
