// The profile modal of spec section 2 on a phone: it opens over the list and pushes /profile/{id},
// swipes right/left (and the arrow keys) step to the next/previous profile of the list, the video
// starts 250 ms and the gallery 150 ms after the profile shows, Escape and the close button close it,
// closing pauses the video and destroys the gallery, and the list underneath is neither reloaded nor
// scrolled. Back closes it too.
import assert from 'node:assert/strict';
import { expect, literal, PHONE, test } from '../harness';
import { acceptedNotice, appTookOver, busiestCountry, openList, swipe, waitForModalProfile } from './directory-helpers';

test.use({ viewport: PHONE });

interface Mark {
  ev: 'shown' | 'gallery' | 'play' | 'pause';
  id?: number;
  t: number;
}

test('directory: profile modal over the list, swipes, video and gallery timing @375x812', async ({
  page,
  baseUrl,
  shot,
  allowConsoleError,
}) => {
  await acceptedNotice(page);
  // A timeline of what the modal does, recorded in the page: when a profile shows, when its
  // gallery starts, and every play() and pause() of a video (stubbed: there is no real video file).
  await page.addInitScript(() => {
    const marks: Array<{ ev: string; id?: number; t: number }> = [];
    (window as unknown as { __marks: typeof marks }).__marks = marks;
    HTMLMediaElement.prototype.play = function play() {
      marks.push({ ev: 'play', t: performance.now() });
      return Promise.resolve();
    };
    HTMLMediaElement.prototype.pause = function pause() {
      marks.push({ ev: 'pause', t: performance.now() });
    };
    const seen = new Set<string>();
    new MutationObserver(() => {
      const article = document.querySelector('[data-testid="profile-modal"] [data-testid="profile"]');
      if (!article) return;
      const id = Number(article.getAttribute('data-id'));
      const gallery = article.querySelector('[data-testid="profile-gallery"]')?.getAttribute('data-gallery');
      if (!seen.has(`shown${id}`)) {
        seen.add(`shown${id}`);
        marks.push({ ev: 'shown', id, t: performance.now() });
      }
      if (gallery === 'ready' && !seen.has(`gallery${id}`)) {
        seen.add(`gallery${id}`);
        marks.push({ ev: 'gallery', id, t: performance.now() });
      }
    }).observe(document, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['data-gallery', 'data-id'],
    });
  });
  // Give every profile a video (the seed has none); the file itself is never played.
  await page.route('**/api/getProfile/*', async (route) => {
    try {
      const response = await route.fetch();
      const body = (await response.json()) as { profile: Record<string, unknown> };
      body.profile.video = '/media/e2e-video.mp4';
      await route.fulfill({ response, json: body });
    } catch {
      // The page moved on (or the journey ended) while this profile was in flight: nothing to fulfil.
    }
  });
  await page.route('**/media/e2e-video.mp4', (route) =>
    route.fulfill({ status: 200, contentType: 'video/mp4', body: '' }),
  );
  allowConsoleError(/e2e-video/);

  const country = await busiestCountry(page, baseUrl);
  const listPath = `/escorts/${country.slug}`;
  const items = await openList(page, baseUrl, listPath);
  const cards = page.getByTestId('profile-card');
  let listCalls = 0;
  page.on('request', (r) => {
    if (r.url().includes('/api/directory/getDirectory')) listCalls += 1;
  });

  // Scroll a little, so "nothing moved" means something.
  await cards.nth(2).scrollIntoViewIfNeeded();
  await page.evaluate(() => window.scrollBy(0, 120));
  const scrollBefore = await page.evaluate(() => window.scrollY);
  assert.ok(scrollBefore > 100, `the list is scrolled (${scrollBefore})`);
  const historyBefore = await page.evaluate(() => window.history.length);

  await expect(page).toHaveTitle(/ in /); // "Escorts in {country} | site"
  const listTitle = await page.title();
  const titleRestored = (what: string) => expect(page, what).toHaveTitle(listTitle, { timeout: 5_000 });
  const pathIs = (path: string) => expect(page).toHaveURL((url) => url.pathname === path);
  const historyLength = () => page.evaluate(() => window.history.length);
  const bodyId = page.locator('body');

  // Open the third card: the modal, its address, its title, and the timeline.
  const [a, b, c] = [items[2].id, items[3].id, items[1].id];
  await cards.nth(2).locator('a').first().click();
  const modal = page.getByTestId('profile-modal');
  await modal.waitFor();
  await waitForModalProfile(page, a);
  await pathIs(`/profile/${a}`);
  await expect.poll(historyLength, 'opening pushed one entry').toBe(historyBefore + 1);
  await expect(modal.locator('.profile-modal__title')).toHaveText(new RegExp(`^${literal(items[2].name)}`));
  await expect(page).toHaveTitle(new RegExp(literal(items[2].name)));
  await expect(bodyId).toHaveId('profile-page');
  const gallery = page.getByTestId('profile-gallery');
  await expect(gallery).toHaveAttribute('data-gallery', 'ready');
  await page.waitForFunction(() => (window as unknown as { __marks: Mark[] }).__marks.some((m) => m.ev === 'play'));
  await shot('1-modal');

  const marks = async () => page.evaluate(() => (window as unknown as { __marks: Mark[] }).__marks);
  let timeline = await marks();
  const shownAt = timeline.find((m) => m.ev === 'shown' && m.id === a)!.t;
  const galleryAt = timeline.find((m) => m.ev === 'gallery' && m.id === a)!.t - shownAt;
  const playAt = timeline.find((m) => m.ev === 'play')!.t - shownAt;
  console.log(
    `    modal timing: gallery started ${galleryAt.toFixed(0)} ms and video ${playAt.toFixed(0)} ms after the profile showed`,
  );
  // The marks are taken in the page a little after the commit the timers count from (under load, up to a
  // frame): a delay that is gone (0 ms) fails, a frame's slack does not.
  assert.ok(galleryAt >= 120 && galleryAt < 3000, `gallery starts after 150 ms (${galleryAt})`);
  assert.ok(playAt >= 220 && playAt < 3000, `video starts after 250 ms (${playAt})`);
  // No order between the two marks: each timer's lower bound is the spec's rule, and the gallery's mark can
  // come after the video's on a loaded machine (CI: 418 ms against 337 ms) when its pictures decode late.
  await expect(page.getByTestId('profile-video')).toHaveAttribute('src', '/media/e2e-video.mp4');

  // Swipe right: the next profile of the list (+), same history entry, address follows.
  await swipe(page, 200);
  await waitForModalProfile(page, b);
  await pathIs(`/profile/${b}`);
  await expect.poll(historyLength, 'stepping replaces the entry').toBe(historyBefore + 1);
  timeline = await marks();
  assert.ok(
    timeline.some((m) => m.ev === 'pause' && m.t > timeline.find((x) => x.ev === 'shown' && x.id === a)!.t),
    'leaving a profile pauses its video',
  );
  await shot('2-swiped-right');
  // Swipe left twice: back to a, then the one before it (-).
  await swipe(page, -200);
  await waitForModalProfile(page, a);
  await swipe(page, -200);
  await waitForModalProfile(page, c);
  // A short or vertical move is no swipe.
  await swipe(page, 30);
  await page.waitForTimeout(300);
  await expect(modal.getByTestId('profile')).toHaveAttribute('data-id', String(c));
  // Arrow keys do the same.
  await page.keyboard.press('ArrowRight');
  await waitForModalProfile(page, a);

  // Gallery viewer: a thumbnail opens it, its arrow keys change the photo, not the profile; Escape
  // closes the viewer only.
  await expect(gallery).toHaveAttribute('data-gallery', 'ready');
  await gallery.locator('a').first().click();
  const viewer = page.getByTestId('gallery-viewer');
  await viewer.waitFor();
  const photos = await gallery.locator('li').count();
  const counter = viewer.locator('.gallery-viewer__counter');
  await expect(counter).toHaveText(`1 / ${photos}`);
  await page.keyboard.press('ArrowRight');
  await expect(counter).toHaveText(`2 / ${photos}`);
  await expect(modal.getByTestId('profile'), 'arrow keys in the viewer leave the profile alone').toHaveAttribute(
    'data-id',
    String(a),
  );
  await shot('3-gallery-viewer');
  await page.keyboard.press('Escape');
  await viewer.waitFor({ state: 'detached' });
  await modal.waitFor();

  // Open the viewer again, then close the modal with its close button: video paused, viewer gone.
  await gallery.locator('a').nth(1).click();
  await viewer.waitFor();
  await page.keyboard.press('Escape');
  await viewer.waitFor({ state: 'detached' });
  const pausesBefore = (await marks()).filter((m) => m.ev === 'pause').length;
  await modal.getByRole('button', { name: 'Close' }).click();
  await modal.waitFor({ state: 'detached' });
  await expect(viewer, 'the gallery is destroyed').toHaveCount(0);
  assert.ok((await marks()).filter((m) => m.ev === 'pause').length > pausesBefore, 'closing paused the video');
  await page.waitForURL(`**${listPath}`);
  await expect(bodyId).toHaveId('escorts-page');
  assert.equal(listCalls, 0, 'the list was not reloaded');
  await expect.poll(() => page.evaluate(() => window.scrollY), 'the list kept its scroll position').toBe(scrollBefore);
  await shot('4-closed');

  await titleRestored('closing the modal restores the exact title of the page');

  // Escape closes it as well; so does Back.
  await cards.nth(3).locator('a').first().click();
  await waitForModalProfile(page, b);
  await page.keyboard.press('Escape');
  await modal.waitFor({ state: 'detached' });
  await page.waitForURL(`**${listPath}`);
  await titleRestored('Escape restores the exact title too');
  await cards.nth(1).locator('a').first().click();
  await waitForModalProfile(page, c);
  await page.goBack();
  await modal.waitFor({ state: 'detached' });
  await pathIs(listPath);
  assert.equal(listCalls, 0, 'still not reloaded');

  // A new tab (modifier click) or a reload shows the full profile page instead.
  await page.goto(`${baseUrl}/profile/${a}`);
  await page.getByTestId('profile-name').waitFor();
  await appTookOver(page);
  await expect(bodyId).toHaveId('profile-page');
  await expect(modal).toHaveCount(0);
});
