// Accounts in the browser (issue 3): registration to recovery on a phone, the login modal on a 401,
// and the brute-force limit as the user sees it. Mails and texts are read from the server's outbox.
import assert from 'node:assert/strict';
import { DESKTOP, expect, linkIn, PHONE, test, waitForOutbox } from '../harness';
import { acknowledge, dismissValidation, newAccount, registerViaApi } from './auth-helpers';

test.use({ viewport: PHONE });

test('auth: register, verify the email, sign out, forget and reset the password, sign in @375x812', async ({
  page,
  baseUrl,
  dataDir,
  requests,
  shot,
  allowConsoleError,
}) => {
  // The used recovery link is refused with a 422 on purpose.
  allowConsoleError(/status of 422 .*\/api\/recover/);
  // So is the easily guessed password (issue 8 item 9).
  allowConsoleError(/status of 422 .*\/api\/auth\/register/);
  const account = newAccount('reg');

  await page.goto(`${baseUrl}/register`);
  const form = page.getByTestId('register-form');
  await form.waitFor();
  await expect(page.locator('body')).toHaveId('register-page');
  await shot('1-register');

  // The shared schemas check the form before anything is sent.
  const before = requests.filter((url) => url.includes('/api/auth/register')).length;
  await form.getByRole('button', { name: 'Create account' }).click();
  await form.getByText("Email can't be blank!").waitFor();
  await form.getByText("Username can't be blank!").waitFor();
  await form.getByText('You must accept the terms to register.').waitFor();
  await form.getByLabel('Date of birth').fill('2015-06-01');
  await form.getByLabel('Date of birth').blur();
  await form.getByText('You must be at least 18 years old to register.').waitFor();
  assert.equal(requests.filter((url) => url.includes('/api/auth/register')).length, before, 'nothing was sent');
  await shot('2-register-errors');

  // The terms open in a dialog from the checkbox's label without ticking it.
  await form.getByRole('button', { name: 'terms of use' }).click();
  const terms = page.getByTestId('terms-dialog');
  await terms.getByText('arranges no bookings', { exact: false }).waitFor();
  await shot('3-terms');
  await terms.getByRole('button', { name: 'Close' }).last().click();
  await terms.waitFor({ state: 'detached' });
  await expect(form.getByRole('checkbox')).not.toBeChecked();

  await form.getByLabel('Email').fill(account.email);
  await form.getByLabel('Username').fill(account.username);
  await form.getByLabel('Password', { exact: true }).fill(account.password);
  await form.getByLabel('Password', { exact: true }).fill('Summer2024');
  await form.getByLabel('Date of birth').fill('1990-04-01');
  await form.getByRole('checkbox').check();
  // An easily guessed password passes the form's own checks; the server refuses it and says why, under
  // the field (zxcvbn-ts, decision 0807).
  await form.getByRole('button', { name: 'Create account' }).click();
  await dismissValidation(page, /This password is too easy to guess/);
  await form.getByText(/This password is too easy to guess/).waitFor();
  await shot('3b-weak-password');
  await form.getByLabel('Password', { exact: true }).fill(account.password);
  await form.getByRole('button', { name: 'Create account' }).click();

  // Registered and signed in: on to profile completion, with the unconfirmed-email banner.
  await page.waitForURL(/\/edit\/\d+\?action=complete$/);
  const id = Number(/\/edit\/(\d+)/.exec(page.url())?.[1]);
  assert.ok(id > 0);
  const banner = page.getByTestId('email-banner');
  await banner.waitFor();
  await shot('4-registered-banner');

  // The verification mail, from the outbox.
  const mail = await waitForOutbox(dataDir, 'mail', { to: account.email, subject: /Confirm your email/ });
  await page.goto(`${baseUrl}${linkIn(mail.text, '/verify/email/')}`);
  await page.getByTestId('verify-page').getByText('your email address is confirmed').waitFor();
  await shot('5-verified');
  await acknowledge(page, /your email address is confirmed/);
  await page.waitForURL((url) => !url.pathname.startsWith('/verify/'));
  // Home says why, over itself (spec section 8), then sends the incomplete profile on to its completion walk.
  await acknowledge(page, /Please complete your profile first\./);
  await page.waitForURL(/\/edit\/\d+\?action=complete$/);
  await page.waitForTimeout(800);
  await expect(banner, 'the banner is gone once the address is confirmed').toHaveCount(0);
  assert.ok(
    requests.some((url) => url.endsWith('/api/app/ping')),
    'a signed-in start pings /api/app/ping',
  );

  // Sign out from the menu.
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('button', { name: 'Logout' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/edit/'));
  await page.waitForLoadState('load');
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('link', { name: 'Log in', exact: true }).click();
  await page.getByTestId('login-page').waitFor();
  await shot('6-login');

  // Forgot the password: the mail carries a /recover link.
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await page.getByTestId('forgot-password-page').waitFor();
  await page.getByLabel('Email').fill(account.email);
  await page.getByRole('button', { name: 'Send the link' }).click();
  await acknowledge(page, /If an account exists for this address/);
  await page.getByText(`If an account exists for ${account.email}`).waitFor();
  await shot('7-forgot-sent');

  const reset = await waitForOutbox(dataDir, 'mail', { to: account.email, subject: /Reset your password/ });
  await page.goto(`${baseUrl}${linkIn(reset.text, '/recover/')}`);
  const recover = page.getByTestId('recover-form');
  await recover.waitFor();
  await shot('8-recover');
  // The shared schema refuses a short password before the link is spent.
  await recover.getByLabel('New password').fill('short');
  await recover.getByRole('button', { name: 'Save the new password' }).click();
  await recover.getByText('New password must be at least 8 characters.').waitFor();
  const newPassword = `${account.password} renewed`;
  await recover.getByLabel('New password').fill(newPassword);
  await recover.getByRole('button', { name: 'Save the new password' }).click();
  await acknowledge(page, /Your password has been changed/);
  await page.waitForURL('**/login');

  // The link works once.
  await page.goto(`${baseUrl}${linkIn(reset.text, '/recover/')}`);
  await page.getByText('This link is invalid or has expired.').waitFor();
  await shot('9-recover-used');

  // Sign in again, with the username this time.
  await page.goto(`${baseUrl}/login`);
  const login = page.getByTestId('login-form');
  await login.getByLabel('Email or username').fill(account.username);
  await login.getByLabel('Password', { exact: true }).fill(newPassword);
  await login.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL(`**/edit/${id}?action=complete`);
  // Told once this browser session already: straight to the walk, which says why in its heading.
  await page.getByRole('heading', { name: 'Complete your profile' }).waitFor();
  await expect(page.getByTestId('notification-dialog')).toHaveCount(0);
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('link', { name: 'Account Settings' }).waitFor();
  await expect(page.getByTestId('email-banner')).toHaveCount(0);
  await shot('10-signed-in-again');
});

test('auth: a 401 opens the login modal; signing in there closes it and the page fills in @375x812', async ({
  page,
  baseUrl,
  shot,
}) => {
  await page.goto(`${baseUrl}/countries`);
  await page.getByTestId('country-list').waitFor();
  const account = await registerViaApi(page, 'modal', true);

  // A visitor opens a signed-in-only screen: its call answers 401 and the modal opens.
  await page.goto(`${baseUrl}/edit/account/${account.id}`);
  const modal = page.getByTestId('login-modal');
  await modal.getByTestId('login-form').waitFor();
  await page.getByTestId('account-page').getByText('Log in to see your account settings.').waitFor();
  await shot('1-modal-on-401');

  await modal.getByLabel('Email or username').fill(account.email);
  await modal.getByLabel('Password', { exact: true }).fill(account.password);
  const refetched = page.waitForResponse((r) => r.url().endsWith(`/api/account/${account.id}`) && r.status() === 200);
  await modal.getByRole('button', { name: 'Log in' }).click();
  await modal.waitFor({ state: 'detached' });
  await refetched;
  const usernameCard = page.getByTestId('username-card');
  await usernameCard.getByText(account.username, { exact: true }).waitFor();
  await shot('2-signed-in-page-filled');
  await page.getByTestId('links-card').scrollIntoViewIfNeeded();
  await shot('3-settings-links-phone');
  await page.getByTestId('delete-card').scrollIntoViewIfNeeded();
  await shot('4-settings-delete-phone');

  // The session ends behind the page's back; the next signed-in call is a 401 again.
  await page.context().clearCookies();
  const renamed = `${account.username}_x`;
  await usernameCard.getByLabel('Username').fill(renamed);
  await usernameCard.getByRole('button', { name: 'Change username' }).click();
  await modal.getByTestId('login-form').waitFor();
  await modal.getByLabel('Email or username').fill(account.username);
  await modal.getByLabel('Password', { exact: true }).fill(account.password);
  await modal.getByRole('button', { name: 'Log in' }).click();
  await modal.waitFor({ state: 'detached' });

  // Signed in again: the same change goes through.
  await usernameCard.getByRole('button', { name: 'Change username' }).click();
  await acknowledge(page, /Your username has been changed/);
  await usernameCard.getByText(renamed, { exact: true }).waitFor();
});

test.describe(() => {
  test.use({ viewport: DESKTOP });
  test('auth: repeated wrong logins end in the 429 message @1280x800', async ({
    page,
    baseUrl,
    shot,
    allowConsoleError,
  }) => {
    allowConsoleError(/status of (422|429)/);
    await page.goto(`${baseUrl}/countries`);
    await page.getByTestId('country-list').waitFor();
    const account = await registerViaApi(page, 'brute', true);

    await page.goto(`${baseUrl}/login`);
    const login = page.getByTestId('login-form');
    await login.waitFor();
    await shot('1-login-desktop');
    await login.getByLabel('Email or username').fill(account.username);

    // Five wrong passwords: each is refused with the validation dialog.
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      await login.getByLabel('Password', { exact: true }).fill(`wrong password ${attempt}`);
      await login.getByRole('button', { name: 'Log in' }).click();
      if (attempt === 1) await shot('2-wrong-password');
      await dismissValidation(page, /These credentials do not match our records/);
    }

    // The sixth is stopped by the limit, and the message says for how long.
    await login.getByLabel('Password', { exact: true }).fill('wrong password 6');
    await login.getByRole('button', { name: 'Log in' }).click();
    const notice = page.getByTestId('notification-dialog');
    await notice.getByText(/Too many attempts\. Please try again in \d+ minutes?\./).waitFor();
    await expect(notice.getByRole('heading')).toHaveText(/Something went wrong/, { useInnerText: true });
    await shot('3-too-many-attempts');
    await notice.getByRole('button', { name: 'OK' }).click();

    // While the window lasts even the right password is refused.
    await login.getByLabel('Password', { exact: true }).fill(account.password);
    await login.getByRole('button', { name: 'Log in' }).click();
    await notice.getByText(/Too many attempts/).waitFor();
    assert.match(page.url(), /\/login$/);
  });
});

test('auth: the forms speak German and Spanish @375x812', async ({ page, baseUrl, shot }) => {
  await page.goto(`${baseUrl}/register?lang=de`);
  const form = page.getByTestId('register-form');
  await page.getByRole('heading', { name: 'Konto erstellen' }).waitFor();
  await form.getByRole('button', { name: 'Konto erstellen' }).click();
  await form.getByText('E-Mail darf nicht leer sein!').waitFor();
  await form.getByText('Um dich zu registrieren, musst du die Nutzungsbedingungen akzeptieren.').waitFor();
  await shot('1-register-de');

  await page.goto(`${baseUrl}/login?lang=es`);
  const login = page.getByTestId('login-form');
  await page.getByRole('heading', { name: 'Iniciar sesión' }).waitFor();
  await login.getByRole('button', { name: 'Iniciar sesión' }).click();
  await login.getByText('¡Correo o nombre de usuario no puede estar vacío!').waitFor();
  await login.getByRole('link', { name: '¿Olvidaste tu contraseña?' }).waitFor();
  await shot('2-login-es');
});
