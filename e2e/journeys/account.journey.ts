// Journey 3: a new advertiser. The start-up user data sends an incomplete profile to completion,
// the menu shows the advertiser's entries, and logout (a CSRF-guarded POST) returns to a visitor.
import assert from 'node:assert/strict';
import { expect, PHONE, test } from '../harness';
import { acknowledge } from './auth-helpers';

test.use({ viewport: PHONE });

test('advertiser: completion redirect, menu by role, logout @375x812', async ({ page, baseUrl, shot }) => {
  await page.goto(`${baseUrl}/countries`);
  await page.getByTestId('country-list').waitFor();

  const stamp = Date.now().toString(36);
  const registered = await page.evaluate(
    (body) =>
      window.__directoryApp!.api<{ data: { user_id: number }; path: string }>('/auth/register', {
        method: 'POST',
        body,
      }),
    {
      email: `e2e-${stamp}@example.test`,
      username: `e2e_${stamp}`,
      password: 'a long enough passphrase 42',
      date_of_birth: '1990-04-01',
      terms: true,
    },
  );
  const id = registered.data.user_id;
  assert.ok(id > 0);

  // A fresh start: the user data arrives ~500 ms later and the incomplete profile is sent to completion.
  await page.goto(`${baseUrl}/countries`);
  // Told why over the page she was on (spec section 8: Complete your Profile), then sent to the walk.
  await acknowledge(page, /Please complete your profile first\./);
  await page.waitForURL(`**/edit/${id}?action=complete`);
  await page.waitForFunction(() => document.body.id === 'edit-page');
  // Once per session: another start goes to the walk without the dialog (issue 23, item 7).
  await page.goto(`${baseUrl}/countries`);
  await page.waitForURL(`**/edit/${id}?action=complete`);
  await page.getByTestId('completion').waitFor();
  await expect(page.getByTestId('notification-dialog')).toHaveCount(0);

  await page.getByRole('button', { name: 'Menu' }).click();
  for (const name of ['Your Profile', 'Edit Profile', 'TopUp', 'Account Settings']) {
    await page.getByRole('link', { name, exact: true }).waitFor();
  }
  assert.equal(
    await page.getByRole('link', { name: 'Your Profile', exact: true }).getAttribute('href'),
    `/profile/${id}`,
  );
  await expect(page.getByRole('link', { name: 'Escort? Join Now' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Admin Panel' })).toHaveCount(0);
  await shot('1-advertiser-menu');

  await page.getByRole('button', { name: 'Logout' }).click();
  await page.waitForLoadState('load');
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('link', { name: 'Log in' }).waitFor();
  await expect(page.getByRole('button', { name: 'Logout' })).toHaveCount(0);
});
