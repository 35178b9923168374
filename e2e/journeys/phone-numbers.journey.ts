// Phone numbers as a new advertiser types them, on a phone (issue 44 items 2, 3 and 11; docs/decisions/0311):
// the register form's date-of-birth hint agrees with the "Show my age" option she meets later; a UK number
// with spaces that is not in use is refused with the reason naming the country (not "must start with +"),
// the same number in other spellings too; a real one typed with 00, brackets and dashes is kept and shown
// grouped; WhatsApp takes it with "Same as my phone", Viber refuses a number not in use with the same reason.
import { expect, PHONE, test } from '../harness';
import { api, fitsWidth } from './advertiser-helpers';
import { registerViaApi } from './auth-helpers';
import { acceptedNotice } from './directory-helpers';

test.use({ viewport: PHONE });

test('phone numbers: typed with spaces, refused with the country, same as my phone for WhatsApp @375x812', async ({
  page,
  baseUrl,
  shot,
}) => {
  await acceptedNotice(page);

  // Item 11: the date of birth is never shown, her age only if she chooses "Show my age" later.
  await page.goto(`${baseUrl}/register`);
  const form = page.getByTestId('register-form');
  await expect(form).toContainText(
    'The date itself is never shown; your age appears on your profile only if you choose “Show my age” later.',
  );
  await expect(form).not.toContainText('It is never shown.');
  await form.getByLabel('Date of birth').scrollIntoViewIfNeeded();
  await shot('1-register-date-of-birth');
  await fitsWidth(page, 'the register form');

  const me = await registerViaApi(page, 'phone');

  // Item 2: the number she types, with spaces, is not one in use: the reason says so and names the country.
  await page.goto(`${baseUrl}/edit/${me.id}?edit=phone`);
  const section = page.getByTestId('section-phone');
  const phone = section.getByLabel('Phone');
  await phone.fill('+44 7700 900123');
  await section.getByRole('button', { name: 'Save' }).click();
  const error = section.locator('.field__error');
  await expect(error).toHaveText('This is not a number in use in the United Kingdom.');
  await expect(section).not.toContainText('international format');
  await shot('2-phone-not-in-use');
  await fitsWidth(page, 'the phone section');
  // Without spaces, or with 00 for +: the same reason.
  for (const typed of ['+447700900123', '0044 7700 900 123']) {
    await phone.fill(typed);
    await phone.blur();
    await expect(error).toHaveText('This is not a number in use in the United Kingdom.');
  }
  // A number without its country code is told to add it.
  await phone.fill('020 7946 0018');
  await phone.blur();
  await expect(error).toHaveText('Phone needs its country code: start with + or 00, for example +44 20 7946 0018.');
  // Nothing was saved.
  expect(((await api(page, `/getUpdateData/${me.id}`)) as { data: { phone: string | null } }).data.phone).toBeNull();

  // A number in use, typed with 00, brackets and dashes: shown grouped, kept as E.164.
  await phone.fill('0044 (0)20 7946-0018');
  await expect(section.getByText('Shown as +44 20 7946 0018')).toBeVisible();
  await expect(error).toHaveCount(0);
  await section.getByRole('button', { name: 'Save' }).click();
  await expect(section.getByText('Saved.')).toBeVisible();
  expect(((await api(page, `/getUpdateData/${me.id}`)) as { data: { phone: string } }).data.phone).toBe(
    '+442079460018',
  );
  await shot('3-phone-saved');

  // Item 3: WhatsApp takes the same forms, with a hint, and "Same as my phone".
  await page.goto(`${baseUrl}/edit/${me.id}?edit=links`);
  const links = page.getByTestId('section-links');
  const whatsapp = links.getByTestId('link-messenger-whatsapp');
  await expect(whatsapp).toContainText('A phone number with the country code (+ or 00), for example +44 20 7946 0018.');
  await whatsapp.getByRole('button', { name: 'Same as my phone' }).click();
  await expect(whatsapp.getByLabel('WhatsApp')).toHaveValue('+44 20 7946 0018');
  // Viber: a number typed with spaces that is not in use gets Phone's reason, not "may not contain spaces".
  const viber = links.getByTestId('link-messenger-viber');
  await viber.getByLabel('Viber').fill('+44 7700 900 123');
  await links.getByRole('button', { name: 'Save' }).click();
  await expect(viber.locator('.field__error')).toHaveText('This is not a number in use in the United Kingdom.');
  await expect(links).not.toContainText('may not contain spaces');
  await viber.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await shot('4-links-viber-refused');
  await viber.getByLabel('Viber').fill('');
  await whatsapp.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await shot('5-links-same-as-phone');
  await fitsWidth(page, 'the links section');
  await links.getByRole('button', { name: 'Save' }).click();
  await expect(links.getByText('Saved.')).toBeVisible();
  const saved = (await api(page, `/getUpdateData/${me.id}`)) as { data: { links: Record<string, unknown> } };
  expect(saved.data.links).toEqual({ messenger: { whatsapp: '+442079460018' } });

  // Opened again, the kept number is shown grouped.
  await page.goto(`${baseUrl}/edit/${me.id}?edit=links`);
  await expect(page.getByTestId('link-messenger-whatsapp').getByLabel('WhatsApp')).toHaveValue('+44 20 7946 0018');
});
