// /escorts/nearby (spec section 2): from the "Near me" button, with the position granted the list
// is sorted by distance ("12 km" on each card); refused or unavailable, a plain message says so.
import assert from 'node:assert/strict';
import { expect, PHONE, test } from '../harness';
import { acceptedNotice } from './directory-helpers';

test.use({ viewport: PHONE });

test('directory: nearby with the position granted, refused and unavailable @375x812', async ({
  page,
  baseUrl,
  shot,
}) => {
  await acceptedNotice(page);
  const context = page.context();
  await context.grantPermissions(['geolocation'], { origin: baseUrl });
  // Central London.
  await context.setGeolocation({ latitude: 51.50735, longitude: -0.12776 });

  await page.goto(`${baseUrl}/`);
  const nearby = page.waitForRequest((r) => r.url().includes('/api/directory/nearby?page=1'));
  await page.getByTestId('nearby-button').click();
  await page.waitForURL('**/escorts/nearby');
  const request = await nearby;
  // Only a rounded position leaves the browser.
  assert.deepEqual(request.postDataJSON(), { lat: 51.51, lng: -0.13 });
  const body = (await (await request.response())!.json()) as { data: Array<{ id: number; distance_km: number }> };
  assert.ok(body.data.length > 0, 'the seed has profiles near London');
  const distances = body.data.map((d) => d.distance_km);
  assert.deepEqual(
    [...distances].sort((a, b) => a - b),
    distances,
    'nearest first',
  );
  const badges = page.getByTestId('card-distance');
  const first = body.data[0].distance_km;
  await expect(badges.first()).toHaveText(first < 1 ? '< 1 km' : `${Math.round(first)} km`);
  await expect(badges.nth(Math.min(5, body.data.length - 1))).toHaveText(/^(< 1|\d+) km$/);
  await expect(page.locator('body')).toHaveId('nearby-page');
  await shot('1-granted');

  // Refused: say so, offer to try again or browse by country; nothing is asked of the server.
  await context.clearPermissions();
  let asked = 0;
  page.on('request', (r) => void (r.url().includes('/api/directory/nearby') && (asked += 1)));
  await page.reload();
  const denied = page.getByTestId('nearby-denied');
  await expect(denied).toContainText('Location access refused');
  await expect(denied.getByRole('link', { name: 'Browse by country' })).toBeVisible();
  assert.equal(asked, 0);
  await shot('2-refused');

  // Unavailable (no fix, or no geolocation in this browser).
  await page.addInitScript(() => {
    Object.defineProperty(navigator, 'geolocation', {
      configurable: true,
      value: {
        getCurrentPosition: (_ok: unknown, fail: (e: unknown) => void) =>
          setTimeout(
            () => fail({ code: 2, PERMISSION_DENIED: 1, POSITION_UNAVAILABLE: 2, TIMEOUT: 3, message: 'no fix' }),
            10,
          ),
      },
    });
  });
  await page.reload();
  const unavailable = page.getByTestId('nearby-unavailable');
  await expect(unavailable).toContainText('Position not available');
  // "Try again" asks again.
  await unavailable.getByRole('button', { name: 'Try again' }).click();
  await unavailable.waitFor();
  assert.equal(asked, 0);
});
