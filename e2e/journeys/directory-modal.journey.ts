// The profile modal of spec section 2 on a phone: it opens over the list and pushes /profile/{id},
// swipes right/left (and the arrow keys) step to the next/previous profile of the list, the video
// starts 250 ms and the gallery 150 ms after the profile shows, Escape and the close button close it,
// closing pauses the video and destroys the gallery, and the list underneath is neither reloaded nor
// scrolled. Back closes it too.
import assert from 'node:assert/strict';
import { journey, PHONE } from '../harness';
import {
  acceptedNotice,
  appTookOver,
  busiestCountry,
  modalProfileId,
  openList,
  swipe,
  waitForModalProfile,
} from './directory-helpers';

interface Mark {
  ev: 'shown' | 'gallery' | 'play' | 'pause';
  id?: number;
  t: number;
}

journey('directory: profile modal over the list, swipes, video and gallery timing', PHONE, async (ctx) => {
  const { page, baseUrl, screenshot } = ctx;
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
  ctx.allowConsoleError(/e2e-video/);

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

  await page.waitForFunction(() => document.title.includes(' in ')); // "Escorts in {country} | site"
  const listTitle = await page.title();
  const titleRestored = (what: string) =>
    page
      .waitForFunction((expected) => document.title === expected, listTitle, { timeout: 5_000 })
      .catch(async () => assert.fail(`${what}: title "${await page.title()}", expected "${listTitle}"`));

  // Open the third card: the modal, its address, its title, and the timeline.
  const [a, b, c] = [items[2].id, items[3].id, items[1].id];
  await cards.nth(2).locator('a').first().click();
  const modal = page.getByTestId('profile-modal');
  await modal.waitFor();
  await waitForModalProfile(page, a);
  assert.equal(new URL(page.url()).pathname, `/profile/${a}`);
  assert.equal(await page.evaluate(() => window.history.length), historyBefore + 1, 'opening pushed one entry');
  const title = (await modal.locator('.profile-modal__title').innerText()).trim();
  assert.ok(title.startsWith(items[2].name), `modal title "${title}" starts with the name "${items[2].name}"`);
  await page.waitForFunction((name) => document.title.includes(name), items[2].name);
  assert.equal(await page.evaluate(() => document.body.id), 'profile-page');
  await page.locator('[data-testid="profile-gallery"][data-gallery="ready"]').waitFor();
  await page.waitForFunction(() => (window as unknown as { __marks: Mark[] }).__marks.some((m) => m.ev === 'play'));
  await screenshot('1-modal');

  const marks = async () => page.evaluate(() => (window as unknown as { __marks: Mark[] }).__marks);
  let timeline = await marks();
  const shownAt = timeline.find((m) => m.ev === 'shown' && m.id === a)!.t;
  const galleryAt = timeline.find((m) => m.ev === 'gallery' && m.id === a)!.t - shownAt;
  const playAt = timeline.find((m) => m.ev === 'play')!.t - shownAt;
  console.log(
    `    modal timing: gallery started ${galleryAt.toFixed(0)} ms and video ${playAt.toFixed(0)} ms after the profile showed`,
  );
  assert.ok(galleryAt >= 145 && galleryAt < 3000, `gallery starts after 150 ms (${galleryAt})`);
  assert.ok(playAt >= 245 && playAt < 3000, `video starts after 250 ms (${playAt})`);
  assert.equal(await page.getByTestId('profile-video').getAttribute('src'), '/media/e2e-video.mp4');

  // Swipe right: the next profile of the list (+), same history entry, address follows.
  await swipe(page, 200);
  await waitForModalProfile(page, b);
  assert.equal(new URL(page.url()).pathname, `/profile/${b}`);
  assert.equal(await page.evaluate(() => window.history.length), historyBefore + 1, 'stepping replaces the entry');
  timeline = await marks();
  assert.ok(
    timeline.some((m) => m.ev === 'pause' && m.t > timeline.find((x) => x.ev === 'shown' && x.id === a)!.t),
    'leaving a profile pauses its video',
  );
  await screenshot('2-swiped-right');
  // Swipe left twice: back to a, then the one before it (-).
  await swipe(page, -200);
  await waitForModalProfile(page, a);
  await swipe(page, -200);
  await waitForModalProfile(page, c);
  // A short or vertical move is no swipe.
  await swipe(page, 30);
  await page.waitForTimeout(300);
  assert.equal(await modalProfileId(page), c);
  // Arrow keys do the same.
  await page.keyboard.press('ArrowRight');
  await waitForModalProfile(page, a);

  // Gallery viewer: a thumbnail opens it, its arrow keys change the photo, not the profile; Escape
  // closes the viewer only.
  await page.locator('[data-testid="profile-gallery"][data-gallery="ready"]').waitFor();
  await page.locator('[data-testid="profile-gallery"] a').first().click();
  const viewer = page.getByTestId('gallery-viewer');
  await viewer.waitFor();
  const photos = await page.locator('[data-testid="profile-gallery"] li').count();
  assert.match(await viewer.locator('.gallery-viewer__counter').innerText(), new RegExp(`^1 / ${photos}$`));
  await page.keyboard.press('ArrowRight');
  assert.match(await viewer.locator('.gallery-viewer__counter').innerText(), new RegExp(`^2 / ${photos}$`));
  assert.equal(await modalProfileId(page), a, 'arrow keys in the viewer leave the profile alone');
  await screenshot('3-gallery-viewer');
  await page.keyboard.press('Escape');
  await viewer.waitFor({ state: 'detached' });
  await modal.waitFor();

  // Open the viewer again, then close the modal with its close button: video paused, viewer gone.
  await page.locator('[data-testid="profile-gallery"] a').nth(1).click();
  await viewer.waitFor();
  await page.keyboard.press('Escape');
  await viewer.waitFor({ state: 'detached' });
  const pausesBefore = (await marks()).filter((m) => m.ev === 'pause').length;
  await modal.getByRole('button', { name: 'Close' }).click();
  await modal.waitFor({ state: 'detached' });
  assert.equal(await viewer.count(), 0, 'the gallery is destroyed');
  assert.ok((await marks()).filter((m) => m.ev === 'pause').length > pausesBefore, 'closing paused the video');
  await page.waitForURL(`**${listPath}`);
  assert.equal(await page.evaluate(() => document.body.id), 'escorts-page');
  assert.equal(listCalls, 0, 'the list was not reloaded');
  assert.equal(await page.evaluate(() => window.scrollY), scrollBefore, 'the list kept its scroll position');
  await screenshot('4-closed');

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
  assert.equal(new URL(page.url()).pathname, listPath);
  assert.equal(listCalls, 0, 'still not reloaded');

  // A new tab (modifier click) or a reload shows the full profile page instead.
  await page.goto(`${baseUrl}/profile/${a}`);
  await page.getByTestId('profile-name').waitFor();
  await appTookOver(page);
  assert.equal(await page.evaluate(() => document.body.id), 'profile-page');
  assert.equal(await modal.count(), 0);
});
