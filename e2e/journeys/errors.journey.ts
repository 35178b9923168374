// Journey 2: unknown paths, bad parameters and the error catalogue of spec section 8, driven
// through the app's own API client and dialogs.
import assert from 'node:assert/strict';
import { expect, PHONE, test } from '../harness';

test.use({ viewport: PHONE });

test('errors: not found, redirects, 422/401/404 and dialogs @375x812', async ({
  page,
  baseUrl,
  requests,
  shot,
  allowConsoleError,
}) => {
  allowConsoleError(/status of (404|422)/);

  await page.goto(`${baseUrl}/no/such/page`);
  await page.waitForURL('**/page-not-found');
  await page.getByTestId('not-found').waitFor();
  await expect(page.locator('body')).toHaveId('page-not-found-page');
  await shot('1-not-found');

  // Country and place accept lowercase letters and hyphens only.
  await page.goto(`${baseUrl}/female/Not_A_Country`);
  await page.waitForURL('**/page-not-found');

  // The old /all/... paths move to /escorts/...
  const countries = await page.evaluate(() =>
    fetch('/api/directory/countries').then((r) => r.json() as Promise<{ data: Array<{ slug: string }> }>),
  );
  const slug = countries.data[0]?.slug;
  assert.ok(slug, 'the seed lists at least one country');
  await page.goto(`${baseUrl}/all/${slug}`);
  await page.waitForURL(`**/escorts/${slug}`);
  await page.getByTestId('profile-card').first().waitFor();

  // Spec section 1: only signed-in users get the user-data fetch and the online ping, so a visitor's
  // page makes no call that answers 401 (and opens no login modal).
  await page.waitForTimeout(1200);
  assert.ok(!requests.some((url) => url.includes('/api/app/getData/')), 'a visitor is not asked for user data');
  assert.ok(!requests.some((url) => url.includes('/api/app/ping')), 'a visitor is not pinged');
  await expect(page.getByTestId('login-modal')).toHaveCount(0);

  // 422 -> validation-error dialog titled with the message, errors grouped by field.
  const status = await page.evaluate(() =>
    window
      .__directoryApp!.api('/directory/getDirectory', {
        method: 'POST',
        body: { category: 'escorts', country: 'NOT VALID' },
      })
      .then(
        () => 200,
        (error: { status: number }) => error.status,
      ),
  );
  assert.equal(status, 422);
  const validation = page.getByTestId('validation-dialog');
  await validation.waitFor();
  await expect(validation.getByRole('heading')).toHaveText(/Please check what you entered/, { useInnerText: true });
  await validation.locator('[data-field="country"]').waitFor();
  await shot('2-validation-dialog');
  await page.keyboard.press('Escape');
  await validation.waitFor({ state: 'detached' });

  // In each item only the first line break is shown (spec section 2).
  await page.route('**/api/directory/getDirectory*', (route) =>
    route.fulfill({
      status: 422,
      contentType: 'application/json',
      body: JSON.stringify({
        message: 'Please check what you entered.',
        errors: { country: ['first\nsecond\nthird'] },
      }),
    }),
  );
  await page.evaluate(() =>
    window.__directoryApp!.api('/directory/getDirectory', { method: 'POST', body: { country: 'x' } }).catch(() => null),
  );
  const item = validation.locator('[data-field="country"] .field-errors__message');
  await item.waitFor();
  await expect.poll(() => item.evaluate((el) => el.innerHTML)).toBe('first<br>second third');
  await page.unroute('**/api/directory/getDirectory*');
  await page.keyboard.press('Escape');
  await validation.waitFor({ state: 'detached' });

  // 401 -> login modal.
  await page.evaluate(() => window.__directoryApp!.api('/app/getData/e2e', { method: 'POST' }).catch(() => null));
  const login = page.getByTestId('login-modal');
  await login.waitFor();
  await shot('3-login-modal');
  await page.keyboard.press('Escape');
  await login.waitFor({ state: 'detached' });

  // Confirm resolves true on confirm and false on cancel or Escape.
  const ask = () => page.evaluate(() => window.__directoryApp!.confirm({ title: 'Bookmark?' }));
  let answer = ask();
  await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Cancel' }).click();
  assert.equal(await answer, false);
  answer = ask();
  await page.getByTestId('confirm-dialog').waitFor();
  await shot('4-confirm');
  await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Yes' }).click();
  assert.equal(await answer, true);
  answer = ask();
  await page.getByTestId('confirm-dialog').waitFor();
  await page.keyboard.press('Escape');
  assert.equal(await answer, false);

  // A notification with a path goes there after OK.
  const notified = page.evaluate(() =>
    window.__directoryApp!.notify({ message: '<b>Saved.</b>', ok: 'OK', icon: 'success', path: '/countries' }),
  );
  const notification = page.getByTestId('notification-dialog');
  await notification.waitFor();
  await expect(notification.getByRole('heading')).toHaveText('Notification', { useInnerText: true });
  await shot('5-notification');
  await notification.getByRole('button', { name: 'OK' }).click();
  assert.equal(await notified, true);
  await page.waitForURL('**/countries');

  // 404 -> page-not-found screen.
  await page.evaluate(() => window.__directoryApp!.api('/getProfile/2147483000').catch(() => null));
  await page.waitForURL('**/page-not-found');

  // A section script that cannot be loaded: after the one reload, a dialog in the page's language says
  // "Loading chunk {n} failed" with the failure type and the address, and offers to try again.
  allowConsoleError(/net::ERR_FAILED|Failed to fetch dynamically imported module|Section failed|Loading chunk/);
  await page.route(/\/dyn\/auth-[^/]*\.js/, (route) => route.abort());
  await page.goto(`${baseUrl}/login`);
  const chunkDialog = page.getByTestId('notification-dialog');
  await chunkDialog.waitFor();
  const chunkText = await chunkDialog.innerText();
  assert.match(chunkText, /Loading chunk auth failed\. \(error: http:\/\/[^)]*\/dyn\/auth-[^)]*\.js[^)]*\)/);
  assert.doesNotMatch(chunkText, /Failed to fetch/);
  await chunkDialog.getByRole('button', { name: 'Try again' }).waitFor();
  await shot('6-chunk-failed');
  await page.unroute(/\/dyn\/auth-[^/]*\.js/);
  await chunkDialog.getByRole('button', { name: 'Try again' }).click();
  await page.locator('input[type="password"]').first().waitFor(); // the login form, loaded on the retry
});
