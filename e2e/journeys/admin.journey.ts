// The Admin Panel as an admin, at 1280 px and at 375 px (issue 12, "How it is judged"): one verification
// approved and one declined with a reason (each advertiser sees the green check with its date, or the
// reason), a video approved (then on the public profile), a profile flagged (gone from its directory
// page and from search), a user warned (every media file gone from disk and from the profile), a report
// resolved, and each of these actions found in the audit log. From a public profile (its page and the
// profile modal) an admin opens the admin modal of that profile; visitors and advertisers get no such
// control, and the profile lies where it lies for them (decision 0506).
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { jpegWithGps, videoWithLocation } from '../../src/server/test/media-files';
import { DESKTOP, expect, PHONE, test } from '../harness';
import { call, newAdvertiser, publicFilesOf, signInAsAdmin, upload } from './admin-helpers';
import {
  acceptedNotice,
  appTookOver,
  busiestCountry,
  openList,
  waitForModalProfile,
  type ListItem,
} from './directory-helpers';

/** The audit log filtered to one user: the labels of its entries, newest first. */
async function auditLabels(page: Page, baseUrl: string, userId: number): Promise<string[]> {
  await page.goto(`${baseUrl}/admin/audit?target=${userId}`);
  const list = page.getByTestId('audit-entries');
  await list.waitFor();
  return list.locator('article header strong').allTextContents();
}

interface Box {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

/** Where the profile page's parts lie (page coordinates), the admin's control included when there is one. */
async function profilePageLayout(page: Page) {
  return page.evaluate(() => {
    const box = (selector: string): Box | null => {
      const r = document.querySelector(selector)?.getBoundingClientRect();
      return r ? { top: r.top + scrollY, bottom: r.bottom + scrollY, left: r.left, right: r.right } : null;
    };
    return {
      back: box('.profile-page .back-button'),
      article: box('.profile-page [data-testid="profile"]'),
      name: box('.profile-page [data-testid="profile-name"] h1'),
      control: box('[data-testid="admin-profile-control"]'),
    };
  });
}

/**
 * The profile page and the profile modal (opened from its card) as someone who is no admin sees them:
 * no admin control, and none of its code fetched, also after the user data has come (~500 ms).
 */
async function noAdminControl(page: Page, baseUrl: string, listPath: string, index: number, who: string) {
  const items = await openList(page, baseUrl, listPath);
  const target = items[index];
  const chunks: string[] = [];
  page.on('request', (r) => chunks.push(r.url()));
  await page.goto(`${baseUrl}/profile/${target.id}`);
  await appTookOver(page);
  await page.getByTestId('profile-name').waitFor();
  await page.waitForTimeout(1500);
  assert.equal(await page.getByTestId('admin-profile-control').count(), 0, `${who}: no admin control on the page`);
  const layout = await profilePageLayout(page);
  await openList(page, baseUrl, listPath);
  await openCard(page, target.id);
  await waitForModalProfile(page, target.id);
  await page.waitForTimeout(1000);
  assert.equal(await page.getByTestId('admin-profile-control').count(), 0, `${who}: no admin control in the modal`);
  const header = await page.locator('.profile-modal__header').boundingBox();
  assert.deepEqual(
    chunks.filter((url) => /admin/.test(new URL(url).pathname)),
    [],
    `${who}: no admin code or call (requests: ${chunks.filter((u) => u.includes('/dyn/')).join(', ')})`,
  );
  return { target, layout, header };
}

/** Opens the profile modal from the list on screen: the card of that profile (new ads move the others). */
async function openCard(page: Page, id: number) {
  await page.locator(`[data-testid="profile-card"][data-id="${id}"] a`).first().click();
}

async function visitorPage(browser: Browser, viewport: { width: number; height: number }) {
  const context = await browser.newContext({ viewport, locale: 'en-GB' });
  const page = await context.newPage();
  await acceptedNotice(page);
  return { context, page };
}

for (const viewport of [DESKTOP, PHONE]) {
  test.describe(() => {
    test.use({ viewport });
    test(`admin: verify one, decline one, approve a video, all in the audit log @${viewport.width}x${viewport.height}`, async ({
      page,
      baseUrl,
      shot,
    }) => {
      const browser = page.context().browser()!;
      const seed = viewport.width;
      const one = await newAdvertiser(browser, baseUrl, 'verifyok', {
        complete: true,
        avatar: await jpegWithGps({ seed: seed + 1 }),
        viewport,
      });
      const two = await newAdvertiser(browser, baseUrl, 'verifyno', {
        complete: true,
        avatar: await jpegWithGps({ seed: seed + 2 }),
        viewport,
      });
      await upload(one.page, `/edit/verify/${one.id}`, await jpegWithGps({ seed: seed + 3 }));
      await upload(two.page, `/edit/verify/${two.id}`, await jpegWithGps({ seed: seed + 4 }));
      await upload(
        one.page,
        `/upload/video/${one.id}`,
        await videoWithLocation({ seconds: 2 }),
        'video/mp4',
        'clip.mp4',
      );

      await signInAsAdmin(page, baseUrl);
      await page.goto(`${baseUrl}/admin/verify`);
      const cardOne = page.locator('[data-testid^="verification-"]').filter({ hasText: one.username });
      const cardTwo = page.locator('[data-testid^="verification-"]').filter({ hasText: two.username });
      await cardOne.waitFor();
      // The avatar and the private photo ID side by side.
      await cardOne.getByRole('img', { name: 'Photo ID' }).waitFor();
      await page.waitForFunction(() =>
        [...document.querySelectorAll('.admin-compare img')].every((i) => (i as HTMLImageElement).complete),
      );
      await shot('1-verify-queue');
      await cardOne.getByRole('button', { name: 'Verify', exact: true }).click();
      await cardOne.waitFor({ state: 'detached' });
      await cardTwo.getByLabel('Reason').selectOption('avatar_no_clear_face');
      await cardTwo.getByRole('button', { name: 'Decline' }).click();
      await cardTwo.waitFor({ state: 'detached' });

      // Each advertiser sees the decision on their verification screen.
      await one.page.goto(`${baseUrl}/edit/verify/${one.id}`);
      await one.page
        .getByTestId('verify-status')
        .getByText(/Verified on \d/)
        .waitFor();
      await two.page.goto(`${baseUrl}/edit/verify/${two.id}`);
      const declined = two.page.getByTestId('verify-status');
      await declined.getByText(/Declined on \d/).waitFor();
      await declined.getByText('The avatar does not show a clear face.').waitFor();

      // The video, once the worker has converted it, waits in the queue; approved, it is on the profile.
      const videoCard = page.locator('[data-testid^="video-"]').filter({ hasText: one.screenName });
      for (let i = 0; i < 20; i++) {
        await page.goto(`${baseUrl}/admin/videos`);
        await page.locator('.admin-list, .empty').first().waitFor();
        if (await videoCard.count()) break;
        await page.waitForTimeout(2000);
      }
      await videoCard.waitFor();
      await shot('2-video-queue');
      await videoCard.getByRole('button', { name: 'Approve' }).click();
      await videoCard.waitFor({ state: 'detached' });
      const visitor = await (await fetch(`${baseUrl}/api/getProfile/${one.id}`)).json();
      assert.match(String(visitor.profile.video), /^\/media\/v\//, 'the approved video is public');
      await page.goto(`${baseUrl}/profile/${one.id}`);
      await page.locator('video').first().waitFor();

      // Every decision is in the audit log, with who and on whom.
      assert.deepEqual((await auditLabels(page, baseUrl, one.id)).slice(0, 3).sort(), [
        'Photo ID viewed',
        'Verification: verified',
        'Video approved',
      ]);
      assert.ok((await auditLabels(page, baseUrl, two.id)).includes('Verification: declined'));
      await shot('3-audit');
      await one.context.close();
      await two.context.close();
    });

    test(`admin: flag a profile, warn a user, resolve a report, all in the audit log @${viewport.width}x${viewport.height}`, async ({
      page,
      baseUrl,
      shot,
      dataDir,
    }) => {
      const browser = page.context().browser()!;
      await signInAsAdmin(page, baseUrl);

      // Flag: a listed profile of the busiest country's list leaves it, and search, at once.
      const country = await busiestCountry(page, baseUrl);
      const listPath = `/escorts/${country.slug}`;
      const items: ListItem[] = await openList(page, baseUrl, listPath);
      const target = items[viewport === DESKTOP ? 0 : 1];
      const inList = async () => {
        const list = await openList(page, baseUrl, listPath);
        return list.some((i) => i.id === target.id);
      };
      const inSearch = async () =>
        (await call<{ data: Array<{ id: number }> }>(page, '/directory/search', { q: target.name })).data.some(
          (p) => p.id === target.id,
        );
      assert.equal(await inSearch(), true, 'found by its name before the flag');

      await page.goto(`${baseUrl}/admin/users?q=${target.id}`);
      await page.getByTestId('user-results').getByRole('button', { name: target.name }).first().click();
      const modal = page.getByTestId('admin-modal');
      await modal.getByRole('heading', { name: `Admin - ${target.name}` }).waitFor();
      await shot('4-admin-modal');
      const flagged = page.waitForResponse((r) => r.url().endsWith('/api/admin/flag') && r.status() === 200);
      await modal.getByRole('switch', { name: 'Flag' }).click();
      await flagged;
      await expect(modal.getByRole('switch', { name: 'Flag' })).toBeChecked();
      await modal.locator('.admin-modal__actions').getByRole('button', { name: 'Close' }).click();
      await modal.waitFor({ state: 'detached' });
      assert.equal(await inList(), false, 'the flagged profile left its directory page');
      assert.equal(await inSearch(), false, 'the flagged profile left search');

      // Warn: every picture of the user is deleted from disk and from the profile.
      const warned = await newAdvertiser(browser, baseUrl, 'warned', {
        complete: true,
        avatar: await jpegWithGps({ seed: viewport.width + 11 }),
        viewport,
      });
      await upload(warned.page, '/upload/photo/gallery', await jpegWithGps({ seed: viewport.width + 12 }));
      assert.ok(publicFilesOf(dataDir, warned.id).length >= 6, 'the pictures are on disk');
      await page.goto(`${baseUrl}/admin/users?q=${encodeURIComponent(warned.username)}`);
      await page.getByTestId('user-results').getByRole('button', { name: warned.screenName }).click();
      await modal.getByRole('heading', { name: `Admin - ${warned.screenName}` }).waitFor();
      await modal.getByRole('button', { name: 'Warn…' }).click();
      const confirmDialog = page.getByTestId('confirm-dialog');
      await confirmDialog.getByText(/All pictures and videos of .* are deleted for good/).waitFor();
      await confirmDialog.getByRole('button', { name: 'Delete all media and warn' }).click();
      await modal.getByText('Warned: 2 pictures and videos deleted.').waitFor();
      await modal.locator('.admin-modal__actions').getByRole('button', { name: 'Close' }).click();
      assert.deepEqual(publicFilesOf(dataDir, warned.id), [], 'no file of the user is left on disk');
      const mine = await call<{ profile: { avatar: unknown; gallery: unknown[] } }>(
        warned.page,
        `/getProfile/${warned.id}`,
      );
      assert.equal(mine.profile.avatar, null);
      assert.deepEqual(mine.profile.gallery, []);
      // The warning reaches them as a notice, on their next visit.
      await warned.page.goto(`${baseUrl}/edit/${warned.id}`);
      await warned.page.getByTestId('notices').getByText('Warning from our moderators').waitFor();

      // Money: a bank transfer recorded by the advertiser's reference credits them, once.
      const { data: bank } = await call<{ data: { reference: string } }>(
        warned.page,
        `/payment/getBankDetails/${warned.id}`,
      );
      await page.goto(`${baseUrl}/admin/money`);
      // Who takes cards and crypto, and that both are the built-in test provider (decision 0420).
      await page.getByTestId('provider-card').getByText('sandbox: built-in sandbox (test provider)').waitFor();
      await page.getByLabel('Reference').fill(bank.reference);
      await page.getByLabel('Amount received (EUR)').fill('25');
      await page.getByLabel('Bank transaction id').fill(`BANK-${viewport.width}-${warned.id}`);
      await page.getByRole('button', { name: 'Credit' }).click();
      await page.getByRole('status').getByText(`Credited. Balance of #${warned.id}: €25.00.`).waitFor();
      await shot('5-money');
      // A price: saved untouched it stays; changed, the shop's price follows (then it goes back).
      const topup = page.locator('.admin-product').filter({ hasText: 'Standard top-up' });
      const price = async () =>
        (await call<{ data: Array<{ code: string; price: number }> }>(page, '/payment/products')).data.find(
          (p) => p.code === 'standard_topup',
        )!.price;
      const before = await price();
      // Listen before clicking: a fast answer would otherwise arrive before the wait began.
      await Promise.all([
        page.waitForResponse((r) => r.url().endsWith('/api/admin/products') && r.status() === 200),
        topup.getByRole('button', { name: 'Save' }).click(),
      ]);
      assert.equal(await price(), before);
      await topup.getByLabel('Price (EUR)').fill('6,50');
      await topup.getByRole('button', { name: 'Save' }).click();
      await page.locator('.admin-product').filter({ hasText: '€6.50' }).waitFor();
      assert.equal(await price(), 650);
      const restored = page.locator('.admin-product').filter({ hasText: 'Standard top-up' });
      await restored.getByLabel('Price (EUR)').fill(String(before / 100));
      await restored.getByRole('button', { name: 'Save' }).click();
      await page
        .locator('.admin-product')
        .filter({ hasText: `€${(before / 100).toFixed(2)}` })
        .first()
        .waitFor();

      // A safety report from a visitor tops the queue; it is resolved with a note.
      const reported = items[viewport === DESKTOP ? 2 : 3];
      const sent = await fetch(`${baseUrl}/api/directory/setFeedback`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          data: { profile_id: reported.id, reason: 'may_be_under_18', message: 'Looks very young.' },
        }),
      });
      assert.equal(sent.status, 200);
      await page.goto(`${baseUrl}/admin/reports`);
      const report = page.locator('[data-testid^="report-"]').first();
      await report.getByText('Looks very young.').waitFor();
      await report.getByText('Safety').waitFor();
      await shot('6-reports');
      await report.getByLabel('Action').selectOption('none');
      await report.getByLabel('Note').fill('Checked the photos and the ID on file: adult.');
      await report.getByRole('button', { name: 'Resolve' }).click();
      await page.getByText('Looks very young.').waitFor({ state: 'detached' });
      await page.goto(`${baseUrl}/admin/reports?status=resolved`);
      await page.getByText('Checked the photos and the ID on file: adult.').first().waitFor();

      // The audit log has all three.
      assert.ok((await auditLabels(page, baseUrl, target.id)).includes('Flagged'));
      const warnedLog = await auditLabels(page, baseUrl, warned.id);
      assert.ok(warnedLog.includes('Warned') && warnedLog.includes('Bank transfer recorded'), warnedLog.join(', '));
      await page.goto(`${baseUrl}/admin/audit?action=money.product`);
      await page.getByTestId('audit-entries').getByText('Product changed').first().waitFor();
      assert.ok((await auditLabels(page, baseUrl, reported.id)).includes('Report resolved'));
      await page.goto(`${baseUrl}/admin/audit`);
      await page.getByTestId('audit-entries').waitFor();
      await shot('7-audit-all');
      await page.goto(`${baseUrl}/admin/overview`);
      await page.getByTestId('tile-open_reports').waitFor();
      await shot('8-overview');
      await warned.context.close();
    });

    test(`admin: a public profile opens the admin modal, for an admin only @${viewport.width}x${viewport.height}`, async ({
      page,
      baseUrl,
      shot,
    }) => {
      const browser = page.context().browser()!;
      const country = await busiestCountry(page, baseUrl);
      const listPath = `/escorts/${country.slug}`;
      const index = viewport === DESKTOP ? 4 : 5;

      // A visitor and an advertiser: no control, no admin code, wherever they meet the profile.
      const visitor = await visitorPage(browser, viewport);
      const seen = await noAdminControl(visitor.page, baseUrl, listPath, index, 'visitor');
      await visitor.context.close();
      // Complete (an incomplete ad sends its owner to the completion screen at the app's start), then
      // hidden: a new listing tops the lists, and the directory journeys count on the seed's order there.
      const advertiser = await newAdvertiser(browser, baseUrl, 'noadmin', {
        complete: true,
        avatar: await jpegWithGps({ seed: viewport.width + 21 }),
        viewport,
      });
      await call(advertiser.page, `/edit/setAttribute/${advertiser.id}`, { attribute: 'ad_status', value: 'hidden' });
      await noAdminControl(advertiser.page, baseUrl, listPath, index, 'advertiser');
      await advertiser.context.close();
      const { target } = seen;

      // The admin on the profile page: the control, once the user data has come, on the back
      // button's line; the profile lies exactly where the visitor's does.
      await signInAsAdmin(page, baseUrl);
      await page.goto(`${baseUrl}/profile/${target.id}`);
      await appTookOver(page);
      const control = page.getByTestId('admin-profile-control');
      await control.waitFor();
      await expect(control).toHaveAccessibleName('Admin');
      await expect(control).toHaveAttribute('title', 'Open the admin modal for this profile: verify, flag, warn');
      const layout = await profilePageLayout(page);
      assert.deepEqual(layout.name, seen.layout.name, 'the name stays where a visitor sees it');
      // (Its bottom may differ: an admin may edit any profile, so its sections carry edit links.)
      assert.equal(layout.article?.top, seen.layout.article?.top, 'the profile starts where a visitor sees it');
      assert.ok(layout.control && layout.back && layout.article, JSON.stringify(layout));
      assert.ok(
        Math.abs(layout.control.top - layout.back.top) <= 1,
        `on the back button's line: ${JSON.stringify(layout)}`,
      );
      assert.ok(layout.control.bottom <= layout.article.top, `above the profile: ${JSON.stringify(layout)}`);
      assert.ok(layout.control.left >= layout.back.right, `beside the back button: ${JSON.stringify(layout)}`);
      await shot('9-profile-page-admin-control');
      await control.click();
      const modal = page.getByTestId('admin-modal');
      await modal.getByRole('heading', { name: `Admin - ${target.name}` }).waitFor();
      await modal.getByText(`#${target.id}`).waitFor();
      await shot('10-admin-modal-from-profile-page');
      await modal.locator('.admin-modal__actions').getByRole('button', { name: 'Close' }).click();
      await modal.waitFor({ state: 'detached' });

      // From the list: the profile modal carries it in its header, which keeps its height; the admin
      // modal opens over the profile modal and, closed, leaves it open.
      await openList(page, baseUrl, listPath);
      await openCard(page, target.id);
      await waitForModalProfile(page, target.id);
      const inModal = page.getByTestId('profile-modal').getByTestId('admin-profile-control');
      await inModal.waitFor();
      const header = await page.locator('.profile-modal__header').boundingBox();
      assert.equal(header?.height, seen.header?.height, 'the header keeps the height a visitor sees');
      await shot('11-profile-modal-admin-control');
      await inModal.click();
      await modal.getByRole('heading', { name: `Admin - ${target.name}` }).waitFor();
      await shot('12-admin-modal-over-profile-modal');
      await page.keyboard.press('Escape');
      await modal.waitFor({ state: 'detached' });
      await waitForModalProfile(page, target.id);
      await page.keyboard.press('Escape');
      await page.getByTestId('profile-modal').waitFor({ state: 'detached' });
    });
  });
}
