// The media screens at 375 px (issue 10, items 5 and 6): the Attention rules before the avatar, an
// avatar JPEG with GPS EXIF whose served variants carry no metadata, 9 gallery photos and the 10th
// refused, reordering seen on the profile, a video that converts and stays hidden while pending, and
// the verification screen with its private photo ID.
import assert from 'node:assert/strict';
import exifr from 'exifr';
import sharp from 'sharp';
import type { Page } from 'playwright-core';
import { jpegWithGps, png, videoWithLocation } from '../../src/server/test/media-files';
import { expect, PHONE, test } from '../harness';
import { acknowledge, dismissValidation, registerViaApi } from './auth-helpers';

test.use({ viewport: PHONE });

async function chooseFiles(
  page: Page,
  click: () => Promise<void>,
  files: Array<{ name: string; mimeType: string; buffer: Buffer }>,
) {
  const chooser = page.waitForEvent('filechooser');
  await click();
  await (await chooser).setFiles(files);
}

test('media: avatar without metadata, gallery of 9, reorder, pending video, verification @375x812', async ({
  page,
  baseUrl,
  shot,
  allowConsoleError,
}) => {
  allowConsoleError(/status of 422/);
  // The ad is not complete, so its server-rendered page answers 404; the SPA shows it to its owner.
  allowConsoleError(/status of 404 .*\/profile\/\d+\]$/);
  await page.goto(`${baseUrl}/countries`);
  await page.getByTestId('country-list').waitFor();
  const me = await registerViaApi(page, 'media');

  // Verification first: without an avatar it says so.
  await page.goto(`${baseUrl}/edit/verify/${me.id}`);
  await page.getByTestId('verify-need-avatar').getByText('You must first upload an avatar.').waitFor();
  await page.getByTestId('verify-privacy').getByText('deleted 30 days after the decision').waitFor();

  // Avatar: the Attention rules come first; the JPEG carries GPS EXIF.
  await page.goto(`${baseUrl}/edit/media/${me.id}`);
  const avatarCard = page.getByTestId('media-avatar');
  await avatarCard.getByText('No avatar yet').waitFor();
  await shot('1-media-empty');
  await avatarCard.getByTestId('avatar-upload').click();
  const rules = page.getByTestId('confirm-dialog');
  await rules.getByText('Attention').waitFor();
  await rules.getByText(/must not show exposed genitals, several people, contact info/).waitFor();
  await shot('2-attention');
  const photo = await jpegWithGps({ width: 2400, height: 3200, seed: 5 });
  assert.ok(await exifr.gps(photo), 'the test photo carries a GPS position');
  await chooseFiles(page, () => rules.getByRole('button', { name: 'I understand, choose a photo' }).click(), [
    { name: 'IMG_2041.jpg', mimeType: 'image/jpeg', buffer: photo },
  ]);
  // The crop comes next (a 3:4 photo: the frame holds all of it at the start).
  const crop = page.getByTestId('avatar-crop');
  await crop.getByText('Choose the part of your photo').waitFor();
  await shot('3a-crop');
  await crop.getByTestId('avatar-crop-use').click();
  const avatarImg = avatarCard.locator('.media-preview img');
  await avatarImg.waitFor();
  await page.waitForFunction(
    () =>
      (document.querySelector('[data-testid="media-avatar"] .media-preview img') as HTMLImageElement | null)?.complete,
  );
  await shot('3-avatar');
  // Every variant the browser may load: WebP from <source>, JPEG from the <img>.
  await expect(avatarImg).toHaveAttribute('width', '1280');
  await expect(avatarImg).toHaveAttribute('height', '1707');
  const variants = async () => {
    const sets = await avatarCard.locator('.media-preview').evaluate((el) => ({
      webp: el.querySelector('source')?.getAttribute('srcset') ?? '',
      jpeg: el.querySelector('img')?.getAttribute('srcset') ?? '',
    }));
    return [...sets.webp.split(', '), ...sets.jpeg.split(', ')].map((s) => s.split(' ')[0]).filter(Boolean);
  };
  await expect.poll(async () => (await variants()).length).toBe(6);
  const urls = await variants();
  for (const url of urls) {
    const res = await page.request.get(`${baseUrl}${url}`);
    assert.equal(res.status(), 200, url);
    const body = await res.body();
    const meta = await sharp(body).metadata();
    assert.deepEqual([meta.exif, meta.xmp, meta.icc, meta.iptc], [undefined, undefined, undefined, undefined], url);
    if (meta.format === 'jpeg') assert.equal(await exifr.gps(body), undefined, url);
  }

  // Gallery: nine photos, chosen at once with a tenth, which is refused.
  await page.getByTestId('media-manage-gallery').click();
  await page.getByTestId('gallery-page').waitFor();
  const tenPhotos = await Promise.all(
    Array.from({ length: 10 }, async (_, i) => ({
      name: `photo-${i + 1}.png`,
      mimeType: 'image/png',
      buffer: await png({ width: 600, height: 800, seed: 100 + i }),
    })),
  );
  await chooseFiles(page, () => page.getByTestId('gallery-upload').click(), tenPhotos);
  await dismissValidation(page, /Your gallery is full: it holds up to 9 photos/);
  await page.getByTestId('gallery-count').getByText('9 of 9 photos').waitFor();
  await page.getByTestId('gallery-full').waitFor();
  await expect(page.getByTestId('gallery-item')).toHaveCount(9);
  await expect(page.getByTestId('gallery-upload')).toBeDisabled();
  await shot('4-gallery-full');

  // Reorder by dragging: the first photo goes onto the third.
  const before = await page
    .getByTestId('gallery-item')
    .evaluateAll((items) => items.map((i) => Number(i.getAttribute('data-id'))));
  const saved = page.waitForResponse(
    (r) => r.url().includes(`/api/edit/updateGalleryPos/${me.id}`) && r.status() === 200,
  );
  const from = (await page.getByTestId('gallery-handle').nth(0).boundingBox())!;
  const to = (await page.getByTestId('gallery-handle').nth(2).boundingBox())!;
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 12 });
  await page.mouse.move(to.x + to.width / 2 + 2, to.y + to.height / 2, { steps: 2 });
  await page.mouse.up();
  await saved;
  const expected = [before[1], before[2], before[0], ...before.slice(3)];
  await page.waitForFunction(
    (want) =>
      JSON.stringify(
        [...document.querySelectorAll('[data-testid="gallery-item"]')].map((i) => Number(i.getAttribute('data-id'))),
      ) === JSON.stringify(want),
    expected,
  );
  await shot('5-gallery-reordered');

  // The profile shows the new order (the owner sees the public view of an ad still being built).
  await page.goto(`${baseUrl}/profile/${me.id}`);
  const gallery = page.getByTestId('profile-gallery');
  await expect(gallery.locator('a')).toHaveCount(9);
  const state = await page.evaluate(
    async (id) =>
      (
        await window.__directoryApp!.api<{ data: { gallery: Array<{ id: number; picture: { src: string } }> } }>(
          `/edit/getGallery/${id}`,
        )
      ).data.gallery,
    me.id,
  );
  assert.deepEqual(
    state.map((g) => g.id),
    expected,
  );
  await shot('6-profile-gallery');

  // Video: converted by the job, then pending, never on the profile until approved.
  await page.goto(`${baseUrl}/edit/media/${me.id}`);
  const videoCard = page.getByTestId('media-video');
  await chooseFiles(page, () => videoCard.getByTestId('video-upload').click(), [
    { name: 'clip.mp4', mimeType: 'video/mp4', buffer: await videoWithLocation({ seconds: 2 }) },
  ]);
  await page.locator('[data-testid="media-video"][data-status="pending"]').waitFor({ timeout: 30_000 });
  await videoCard.getByText('Pending: an admin checks your video before the public sees it.').waitFor();
  await videoCard.getByTestId('video-preview').waitFor();
  await shot('7-video-pending');
  await page.goto(`${baseUrl}/profile/${me.id}`);
  await page.getByTestId('profile-gallery').waitFor();
  await expect(page.getByTestId('profile-video'), 'a pending video is not on the profile').toHaveCount(0);

  // Verification: with an avatar the photo ID goes up and the request is pending.
  await page.goto(`${baseUrl}/edit/verify/${me.id}`);
  await chooseFiles(page, () => page.getByTestId('verify-upload').click(), [
    { name: 'passport.jpg', mimeType: 'image/jpeg', buffer: await jpegWithGps({ seed: 77 }) },
  ]);
  await acknowledge(page, /Your request is pending/);
  await page.locator('[data-testid="verify-card"][data-status="pending"]').waitFor();
  await shot('8-verify-pending');

  // Delete all media, behind its confirmation.
  await page.goto(`${baseUrl}/edit/media/${me.id}`);
  await page.getByTestId('media-delete-all').click();
  const confirmAll = page.getByTestId('confirm-dialog');
  await confirmAll.getByText('Delete all media?').waitFor();
  await shot('9-delete-all');
  await confirmAll.getByRole('button', { name: 'Delete everything' }).click();
  await acknowledge(page, /All your media were deleted/);
  await page.getByTestId('media-avatar').getByText('No avatar yet').waitFor();
});

test('media: a square photo is cropped to 3:4 where she chooses, and Cancel uploads nothing @375x812', async ({
  page,
  baseUrl,
  shot,
  allowConsoleError,
}) => {
  allowConsoleError(/status of 404 .*\/profile\/\d+\]$/);
  await page.goto(`${baseUrl}/countries`);
  await page.getByTestId('country-list').waitFor();
  const me = await registerViaApi(page, 'crop');
  await page.goto(`${baseUrl}/edit/media/${me.id}`);
  const avatarCard = page.getByTestId('media-avatar');
  await avatarCard.getByText('No avatar yet').waitFor();
  // Left half red, right half blue: where the frame sits decides the colour of the avatar.
  const half = (colour: string) =>
    sharp({ create: { width: 600, height: 1200, channels: 3, background: colour } })
      .png()
      .toBuffer();
  const square = await sharp({ create: { width: 1200, height: 1200, channels: 3, background: '#ffffff' } })
    .composite([
      { input: await half('#d00000'), left: 0, top: 0 },
      { input: await half('#0000d0'), left: 600, top: 0 },
    ])
    .jpeg({ quality: 92 })
    .toBuffer();
  const pick = async () => {
    await avatarCard.getByTestId('avatar-upload').click();
    const rules = page.getByTestId('confirm-dialog');
    await chooseFiles(page, () => rules.getByRole('button', { name: 'I understand, choose a photo' }).click(), [
      { name: 'square.jpg', mimeType: 'image/jpeg', buffer: square },
    ]);
    const crop = page.getByTestId('avatar-crop');
    await crop.getByText('Choose the part of your photo').waitFor();
    return crop;
  };

  // Cancel: nothing goes up.
  let crop = await pick();
  await crop.getByRole('button', { name: 'Cancel' }).click();
  await expect(crop).toHaveCount(0);
  await avatarCard.getByText('No avatar yet').waitFor();

  // Zoomed in and dragged to the right: the avatar is 3:4 and blue.
  crop = await pick();
  await crop.getByTestId('avatar-crop-zoom').fill('2');
  const area = (await crop.locator('.reactEasyCrop_Container').boundingBox())!;
  const cx = area.x + area.width / 2;
  const cy = area.y + area.height / 2;
  await page.mouse.move(cx, cy);
  await page.mouse.down();
  await page.mouse.move(cx - area.width / 2, cy, { steps: 8 });
  await page.mouse.up();
  await shot('crop-zoomed');
  await crop.getByTestId('avatar-crop-use').click();
  const avatarImg = avatarCard.locator('.media-preview img');
  await avatarImg.waitFor();
  const width = Number(await avatarImg.getAttribute('width'));
  const height = Number(await avatarImg.getAttribute('height'));
  expect(Math.abs(width / height - 3 / 4)).toBeLessThan(0.01);
  const src = (await avatarImg.getAttribute('src'))!;
  const stored = await (await page.request.get(`${baseUrl}${src}`)).body();
  const { dominant } = await sharp(stored).stats();
  expect(dominant.b).toBeGreaterThan(150);
  expect(dominant.r).toBeLessThan(100);
  await shot('crop-done');
});
