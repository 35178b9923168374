// The report form (DESIGN.md: setFeedback is the report channel, the safeguarding reasons first) and
// comments under a profile: a visitor is asked to log in, a signed-in user posts.
import assert from 'node:assert/strict';
import { expect, PHONE, test } from '../harness';
import { acknowledge, registerViaApi } from './auth-helpers';
import { acceptedNotice, busiestCountry } from './directory-helpers';

test.use({ viewport: PHONE });

interface Item {
  id: number;
}

test('directory: report a profile, comment on it @375x812', async ({ page, baseUrl, shot }) => {
  await acceptedNotice(page);
  const country = await busiestCountry(page, baseUrl);
  const list = await page.request.post(`${baseUrl}/api/directory/getDirectory`, {
    data: { category: 'escorts', country: country.slug },
  });
  const items = ((await list.json()) as { data: Item[] }).data;
  // A profile whose owner has comments on.
  let id = 0;
  for (const item of items) {
    const { profile } = (await (await page.request.get(`${baseUrl}/api/getProfile/${item.id}`)).json()) as {
      profile: { comments_enabled: boolean };
    };
    if (profile.comments_enabled) {
      id = item.id;
      break;
    }
  }
  assert.ok(id, 'a seeded profile has comments on');

  await page.goto(`${baseUrl}/profile/${id}`);
  await page.getByTestId('profile-name').waitFor();
  // The app's screen, not the server's first paint (the same profile, whose links have no handlers yet:
  // a tap there before the app took over counted no reveal, CI session 19): the comments are the app's.
  await page.getByTestId('comments').waitFor();

  // The phone: a tel: link without spaces, with the mention note; a tap is counted as a reveal.
  const phone = page.getByTestId('profile-phone');
  const number = (await phone.innerText()).replace(/^[^+\d]+/, '').trim();
  await expect(phone).toHaveAttribute('href', `tel:${number.replace(/\s+/g, '')}`);
  await expect(page.getByText('Please mention that you found this profile on Companion Directory.')).toBeVisible();
  // Keep the browser from handing tel: to the system once the app has seen the tap.
  await page.evaluate(() =>
    document.addEventListener('click', (event) => {
      if ((event.target as Element).closest('a[href^="tel:"]')) event.preventDefault();
    }),
  );
  const reveal = page.waitForResponse((r) => r.url().endsWith(`/api/directory/phoneReveal/${id}`));
  await phone.click();
  assert.equal((await reveal).status(), 200);

  const comments = page.getByTestId('comments');
  await comments.getByRole('button', { name: 'Log in to comment' }).click();
  await page.getByTestId('login-modal').waitFor();
  await page.keyboard.press('Escape');
  await page.getByTestId('login-modal').waitFor({ state: 'detached' });

  // Report: the two safeguarding reasons come first, in their own box.
  await page.getByTestId('report-open').click();
  const dialog = page.getByTestId('report-dialog');
  const urgentReasons = ['This person may be under 18', 'This person may not be here of their own free will'];
  await expect(dialog.locator('.report__group--urgent .report__option')).toHaveText(urgentReasons);
  const options = dialog.locator('.report__option');
  await expect(options.nth(0)).toHaveText(urgentReasons[0]);
  await expect(options.nth(1)).toHaveText(urgentReasons[1]);
  await shot('1-report');
  await dialog.getByLabel('This person may be under 18').check();
  await dialog.getByLabel('What happened? (optional)').fill('Looks very young in the photos.');
  const sent = page.waitForRequest((r) => r.url().endsWith('/api/directory/setFeedback'));
  await dialog.getByRole('button', { name: 'Send report' }).click();
  assert.deepEqual((await sent).postDataJSON(), {
    data: { profile_id: id, reason: 'may_be_under_18', message: 'Looks very young in the photos.' },
  });
  const notice = page.getByTestId('notification-dialog');
  await notice.getByText('Thank you. Our team reviews safety reports first.').waitFor();
  await dialog.waitFor({ state: 'detached' });
  await notice.getByRole('button', { name: 'OK' }).click();

  // Signed in (a new account: the completion redirect comes first, Back returns to the profile).
  await registerViaApi(page, 'commenter');
  await page.goto(`${baseUrl}/profile/${id}`);
  // "Complete your Profile" over the profile first, then the walk (spec section 8; issue 23, item 7).
  await acknowledge(page, /Please complete your profile first\./);
  await page.waitForURL('**/edit/*?action=complete');
  await page.goBack();
  await page.getByTestId('profile-name').waitFor();
  const text = `Lovely conversation, thank you ${Date.now().toString(36)}`;
  await comments.getByLabel('Your comment').fill(text);
  await comments.getByRole('button', { name: 'Post comment' }).click();
  const posted = comments.getByTestId('comment').filter({ hasText: text });
  await expect(posted).toHaveText(/^Member/);
  await expect(comments.getByLabel('Your comment')).toHaveValue('');
  await posted.scrollIntoViewIfNeeded();
  await shot('2-commented');
});
