// The picture pipeline through the real routes: metadata stripped from every variant, bad files refused
// with a clear 422 and no trace, the gallery limit, reordering seen on the public profile, deleting,
// the avatar rule and the near-duplicate search.
import path from 'node:path';
import exifr from 'exifr';
import sharp from 'sharp';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AVATAR_CHANGE_MAX_POSITION, GALLERY_MAX } from '#shared/constants.ts';
import type { MediaState } from '#shared/schemas/media.ts';
import { media, profiles } from '../../db/schema';
import { atClock, hoursFromNow } from '../../test/clock';
import { createAdvertiser, createSession, LONDON, MANCHESTER, seedGeo } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/helpers';
import { bombPng, filesUnder, jpegWithGps, multipart, png, truncatedJpeg } from '../../test/media-files';
import { findSimilarImages } from './media.service';
import { PICTURE_HASH_VERSION } from './picture-hash';

let t: TestApp;
let mediaDir: string;

beforeAll(async () => {
  t = await createTestApp();
  await seedGeo(t.ctx);
  mediaDir = path.join(t.dataDir, 'media');
});
afterAll(() => t.close());

// A complete profile (the avatar is the one item its media decide).
async function advertiser(o: Parameters<typeof createAdvertiser>[1] = {}) {
  const { account } = await createAdvertiser(t.ctx, { about: 'Warm, witty and discreet.', ...o });
  return { id: account.id, session: await createSession(t.ctx, account.id) };
}

type Session = Awaited<ReturnType<typeof createSession>>;

function upload(session: Session, type: string, body: Buffer, o: Parameters<typeof multipart>[1] = {}) {
  const form = multipart(body, o);
  return t.app.inject({
    method: 'POST',
    url: `/api/upload/photo/${type}`,
    cookies: session.cookies,
    headers: { ...session.headers, ...form.headers },
    payload: form.payload,
  });
}

async function state(id: number, session: Session): Promise<MediaState> {
  const res = await t.app.inject({ method: 'GET', url: `/api/edit/getGallery/${id}`, ...session });
  expect(res.statusCode).toBe(200);
  return res.json<{ data: MediaState }>().data;
}

const rowsOf = (userId: number) => t.ctx.db.select().from(media).where(eq(media.userId, userId));

/** The bytes a visitor's browser gets for a URL under /media/. */
async function served(url: string) {
  const res = await t.app.inject({ method: 'GET', url });
  expect(res.statusCode, url).toBe(200);
  return res.rawPayload;
}

const urlsOf = (srcset: string) => srcset.split(', ').map((s) => s.split(' ')[0]);

describe('pictures lose every piece of metadata', () => {
  it('an avatar JPEG with GPS EXIF becomes WebP and JPEG variants with no EXIF, GPS, XMP or ICC', async () => {
    const original = await jpegWithGps({ width: 1600, height: 1200 });
    // The test file really carries what we strip.
    expect(await exifr.gps(original)).toMatchObject({ latitude: expect.closeTo(51.5, 1) });
    const { id, session } = await advertiser();
    const res = await upload(session, 'avatar', original, { filename: 'IMG_0001.jpg' });
    expect(res.statusCode, res.body).toBe(200);
    const picture = res.json().data.picture;
    expect(picture.width).toBe(1280);
    expect(picture.height).toBe(960);
    expect(picture.placeholder).toMatch(/^data:image\/webp;base64,/);
    const jpegs = urlsOf(picture.srcset);
    const webps = urlsOf(picture.webp_srcset);
    expect(picture.srcset).toMatch(/ 320w, .* 640w, .* 1280w$/);
    expect(jpegs).toHaveLength(3);
    expect(webps).toHaveLength(3);
    for (const url of jpegs) {
      const body = await served(url);
      expect((await sharp(body).metadata()).format).toBe('jpeg');
      expect(await exifr.parse(body, { tiff: true, xmp: true, icc: true, iptc: true, jfif: false })).toBeUndefined();
      expect(await exifr.gps(body)).toBeUndefined();
    }
    for (const url of webps) {
      const body = await served(url);
      const meta = await sharp(body).metadata();
      expect(meta.format).toBe('webp');
      expect([meta.exif, meta.xmp, meta.icc, meta.iptc]).toEqual([undefined, undefined, undefined, undefined]);
      // RIFF chunks that could carry metadata.
      for (const chunk of ['EXIF', 'XMP ', 'ICCP']) expect(body.includes(Buffer.from(chunk))).toBe(false);
    }
    // The names say nothing about the upload.
    for (const url of [...jpegs, ...webps])
      expect(url).toMatch(new RegExp(`^/media/u/${id}/[0-9a-f]{24}-\\d+\\.(jpg|webp)$`));
    const [profile] = await t.ctx.db.select().from(profiles).where(eq(profiles.userId, id));
    expect(profile.avatarMediaId).toBe(res.json().data.id);
  });

  it('turns a picture by its EXIF orientation before dropping it', async () => {
    const sideways = await (
      await (await import('../../test/media-files')).picture({ width: 800, height: 600 })
    )
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const { session } = await advertiser();
    const res = await upload(session, 'gallery', sideways);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.picture).toMatchObject({ width: 600, height: 800 });
  });

  it('stores a perceptual hash and four bands, and finds near-duplicates across accounts', async () => {
    const a = await advertiser();
    const b = await advertiser();
    const source = await jpegWithGps({ width: 1000, height: 800, seed: 42 });
    const first = await upload(a.session, 'gallery', source);
    // The same picture, re-encoded smaller: what a copier would upload.
    const copy = await sharp(source).resize(700).jpeg({ quality: 70 }).toBuffer();
    const second = await upload(b.session, 'gallery', copy);
    const other = await upload(b.session, 'gallery', await jpegWithGps({ seed: 7 }));
    expect([first.statusCode, second.statusCode, other.statusCode]).toEqual([200, 200, 200]);
    const [row] = await t.ctx.db.select().from(media).where(eq(media.id, first.json().data.id));
    expect(typeof row.phash).toBe('bigint');
    const u = BigInt.asUintN(64, row.phash!);
    expect([row.phashB0, row.phashB1, row.phashB2, row.phashB3]).toEqual([
      Number(u >> 48n),
      Number((u >> 32n) & 0xffffn),
      Number((u >> 16n) & 0xffffn),
      Number(u & 0xffffn),
    ]);
    expect(row.phashVersion).toBe(PICTURE_HASH_VERSION);
    expect(typeof row.phashMirror).toBe('bigint');
    const similar = await findSimilarImages(t.ctx, { hash: row.phash! }, 3);
    const ids = similar.map((s) => s.mediaId);
    expect(ids).toContain(first.json().data.id);
    expect(ids).toContain(second.json().data.id);
    expect(ids).not.toContain(other.json().data.id);
    expect(similar.find((s) => s.mediaId === second.json().data.id)).toMatchObject({ userId: b.id });
  });
});

describe('bad files get a clear error and change nothing', () => {
  const cases: Array<[string, () => Promise<Parameters<typeof upload>[2]>, Parameters<typeof multipart>[1], RegExp]> = [
    [
      'a text file named .jpg',
      async () => Buffer.from('hello, this is not a picture\n'.repeat(40)),
      { filename: 'me.jpg' },
      /not a picture we accept/,
    ],
    [
      'a PNG sent as image/jpeg',
      () => png(),
      { filename: 'me.jpg', contentType: 'image/jpeg' },
      /says it is image\/jpeg, but its content is PNG/,
    ],
    [
      'a 50-megapixel image',
      () => bombPng(),
      { filename: 'big.png', contentType: 'image/png' },
      /at most 40 megapixels/,
    ],
    ['a truncated JPEG', () => truncatedJpeg(), {}, /could not be read/],
    [
      'a picture too small to show',
      () => png({ width: 120, height: 90 }),
      { contentType: 'image/png' },
      /at least 200 pixels/,
    ],
    ['an empty file', async () => Buffer.alloc(0), {}, /Choose a file/],
    ['a file in another field', () => png(), { field: 'photo', contentType: 'image/png' }, /Choose a file/],
  ];

  it.each(cases)('%s', async (_name, make, form, message) => {
    const { id, session } = await advertiser();
    const before = filesUnder(mediaDir);
    const res = await upload(session, 'gallery', await make(), form);
    expect(res.statusCode, res.body).toBe(422);
    const body = res.json<{ message: string; errors: Record<string, string[]> }>();
    expect(body.message).toBe('Please check what you entered.');
    expect(body.errors.file[0]).toMatch(message);
    expect(await rowsOf(id)).toEqual([]);
    expect(filesUnder(mediaDir)).toEqual(before);
  });

  it('a file over the size limit', async () => {
    const { id, session } = await advertiser();
    const before = filesUnder(mediaDir);
    const huge = Buffer.concat([await png(), Buffer.alloc(21 * 1024 * 1024, 7)]);
    const res = await upload(session, 'portrait', huge, { contentType: 'image/png' });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.file[0]).toBe('The file is too large: at most 20 MB.');
    expect(await rowsOf(id)).toEqual([]);
    expect(filesUnder(mediaDir)).toEqual(before);
  });

  it('a body that is not multipart at all', async () => {
    const { session } = await advertiser();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/upload/photo/avatar',
      ...session,
      payload: { file: 'x' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.file).toEqual(['Choose a file to upload.']);
  });

  it('the store failing half-way leaves no row and no file', async () => {
    const { id, session } = await advertiser();
    const before = filesUnder(mediaDir);
    const store = t.ctx.media;
    let puts = 0;
    const failing = Object.create(store) as typeof store;
    failing.put = async (...args: Parameters<typeof store.put>) => {
      if (++puts === 3) throw new Error('disk full');
      return store.put(...args);
    };
    t.ctx.media = failing;
    try {
      const res = await upload(session, 'gallery', await jpegWithGps());
      expect(res.statusCode).toBe(500);
    } finally {
      t.ctx.media = store;
    }
    expect(puts).toBe(3);
    expect(await rowsOf(id)).toEqual([]);
    expect(filesUnder(mediaDir)).toEqual(before);
  });

  it('the message is in the language of the page', async () => {
    const { session } = await advertiser();
    const form = multipart(await png(), { contentType: 'image/jpeg' });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/upload/photo/gallery',
      cookies: session.cookies,
      headers: { ...session.headers, ...form.headers, 'x-language': 'de' },
      payload: form.payload,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.file[0]).toMatch(/gibt sich als image\/jpeg aus, ihr Inhalt ist aber PNG/);
  });
});

describe('the gallery', () => {
  it(`holds ${GALLERY_MAX} photos and refuses the next with a clear message`, async () => {
    const { id, session } = await advertiser();
    for (let i = 0; i < GALLERY_MAX; i++) {
      const res = await upload(session, 'gallery', await png({ width: 400, height: 300, seed: i }), {
        contentType: 'image/png',
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    const before = filesUnder(mediaDir);
    const res = await upload(session, 'gallery', await png({ seed: 99 }), { contentType: 'image/png' });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.file).toEqual([
      `Your gallery is full: it holds up to ${GALLERY_MAX} photos. Delete one to add another.`,
    ]);
    expect((await state(id, session)).gallery).toHaveLength(GALLERY_MAX);
    expect(filesUnder(mediaDir)).toEqual(before);
  });

  it('dates a new photo by the app clock, not the database clock', async () => {
    const { id, session } = await advertiser();
    const body = await png({ seed: 7 });
    const at = hoursFromNow(5);
    const res = await atClock(t.ctx, at, () => upload(session, 'gallery', body, { contentType: 'image/png' }));
    expect(res.statusCode, res.body).toBe(200);
    const [row] = await rowsOf(id);
    expect(row.createdAt).toEqual(at);
  });

  it('is reordered by updateGalleryPos and shows the new order on the public profile', async () => {
    const { id, session } = await advertiser();
    for (let i = 0; i < 4; i++)
      await upload(session, 'gallery', await png({ width: 400, height: 300, seed: 10 + i }), {
        contentType: 'image/png',
      });
    await upload(session, 'avatar', await jpegWithGps());
    const ids = (await state(id, session)).gallery.map((g) => g.id);
    const order = [ids[2], ids[0], ids[3], ids[1]];
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/edit/updateGalleryPos/${id}`,
      ...session,
      payload: { gallery: order },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await state(id, session)).gallery.map((g) => g.id)).toEqual(order);
    const profile = await t.app.inject({ method: 'GET', url: `/api/getProfile/${id}` });
    expect(profile.json().profile.gallery.map((g: { id: number }) => g.id)).toEqual(order);

    for (const bad of [
      [ids[0], ids[1], ids[2]],
      [...order, ids[0]],
      [ids[0], ids[1], ids[2], 2147483000],
    ]) {
      const refused = await t.app.inject({
        method: 'POST',
        url: `/api/edit/updateGalleryPos/${id}`,
        ...session,
        payload: { gallery: bad },
      });
      expect(refused.statusCode).toBe(422);
    }
    const extra = await t.app.inject({
      method: 'POST',
      url: `/api/edit/updateGalleryPos/${id}`,
      ...session,
      payload: { gallery: order, x: 1 },
    });
    expect(extra.statusCode).toBe(422);
    expect((await state(id, session)).gallery.map((g) => g.id)).toEqual(order);
  });
});

describe('deleting', () => {
  it('one photo: its row and all its files', async () => {
    const { id, session } = await advertiser();
    const before = filesUnder(mediaDir);
    const res = await upload(session, 'gallery', await jpegWithGps());
    const item = res.json().data;
    expect(filesUnder(mediaDir).length).toBe(before.length + 6);
    const del = await t.app.inject({
      method: 'POST',
      url: `/api/edit/deleteMedia/${id}`,
      ...session,
      payload: { id: item.id },
    });
    expect(del.statusCode).toBe(200);
    expect(await rowsOf(id)).toEqual([]);
    expect(filesUnder(mediaDir)).toEqual(before);
  });

  it("not someone else's photo, even by an owner of another id", async () => {
    const a = await advertiser();
    const b = await advertiser();
    const item = (await upload(a.session, 'gallery', await jpegWithGps())).json().data;
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/edit/deleteMedia/${b.id}`,
      ...b.session,
      payload: { id: item.id },
    });
    expect(res.statusCode).toBe(404);
    expect(await rowsOf(a.id)).toHaveLength(1);
  });

  it('all media: rows and files go, and a profile without an avatar leaves the directory', async () => {
    const { id, session } = await advertiser({ city: MANCHESTER });
    const before = filesUnder(mediaDir);
    await upload(session, 'avatar', await jpegWithGps({ seed: 3 }));
    await upload(session, 'gallery', await jpegWithGps({ seed: 4 }));
    await upload(session, 'portrait', await jpegWithGps({ seed: 5 }));
    const [listed] = await t.ctx.db.select().from(profiles).where(eq(profiles.userId, id));
    expect([listed.complete, listed.listed]).toEqual([true, true]);
    const res = await t.app.inject({ method: 'POST', url: `/api/edit/deleteAllMedia/${id}`, ...session, payload: {} });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.deleted).toBe(3);
    expect(await rowsOf(id)).toEqual([]);
    expect(filesUnder(mediaDir)).toEqual(before);
    const [after] = await t.ctx.db.select().from(profiles).where(eq(profiles.userId, id));
    expect([after.avatarMediaId, after.complete, after.listed]).toEqual([null, false, false]);
  });

  it('a new avatar replaces the old one and its files', async () => {
    const { id, session } = await advertiser();
    await upload(session, 'avatar', await jpegWithGps({ seed: 1 }));
    const files = filesUnder(mediaDir);
    const res = await upload(session, 'avatar', await jpegWithGps({ seed: 2 }));
    expect(res.statusCode).toBe(200);
    const rows = await rowsOf(id);
    expect(rows.map((r) => r.id)).toEqual([res.json().data.id]);
    expect(filesUnder(mediaDir).length).toBe(files.length);
  });
});

describe(`the avatar rule: above position ${AVATAR_CHANGE_MAX_POSITION} a new avatar needs a top-up`, () => {
  it('refuses the change with a clear message, allows the first avatar and lets an admin through', async () => {
    // The advertiser's home listing is the oldest in Berlin-free London: everyone else was bumped later.
    const low = await advertiser({ city: LONDON, bumpedAt: new Date('2000-01-01T00:00:00Z') });
    for (let i = 0; i < AVATAR_CHANGE_MAX_POSITION; i++)
      await createAdvertiser(t.ctx, { city: LONDON, about: 'Ahead.', bumpedAt: new Date(Date.now() - i * 1000) });
    const first = await upload(low.session, 'avatar', await jpegWithGps({ seed: 8 }));
    expect(first.statusCode, first.body).toBe(200);
    const s = await state(low.id, low.session);
    expect(s.avatar_change.allowed).toBe(false);
    expect(s.avatar_change.position).toBeGreaterThan(AVATAR_CHANGE_MAX_POSITION);
    const rows = await rowsOf(low.id);
    const again = await upload(low.session, 'avatar', await jpegWithGps({ seed: 9 }));
    expect(again.statusCode).toBe(403);
    expect(again.json().message).toMatch(/Changing the avatar needs a top-up first/);
    expect(await rowsOf(low.id)).toEqual(rows);
    // Gallery photos are not the avatar.
    expect((await upload(low.session, 'gallery', await jpegWithGps({ seed: 10 }))).statusCode).toBe(200);
    const admin = await advertiser({ role: 'admin' });
    const form = multipart(await jpegWithGps({ seed: 11 }));
    const byAdmin = await t.app.inject({
      method: 'POST',
      url: `/api/upload/photo/avatar?id=${low.id}`,
      cookies: admin.session.cookies,
      headers: { ...admin.session.headers, ...form.headers },
      payload: form.payload,
    });
    expect(byAdmin.statusCode, byAdmin.body).toBe(200);
  });

  it('another advertiser cannot upload for someone else', async () => {
    const a = await advertiser();
    const b = await advertiser();
    const form = multipart(await jpegWithGps());
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/upload/photo/gallery?id=${a.id}`,
      cookies: b.session.cookies,
      headers: { ...b.session.headers, ...form.headers },
      payload: form.payload,
    });
    expect(res.statusCode).toBe(403);
    expect(await rowsOf(a.id)).toEqual([]);
  });
});

describe('presenting', () => {
  it('directory cards and the public profile carry srcset, sizes data and the JPEG fallback', async () => {
    const { id, session } = await advertiser({ city: MANCHESTER, screenName: 'Picture Person' });
    await upload(session, 'avatar', await jpegWithGps({ width: 900, height: 1200 }));
    await upload(session, 'gallery', await jpegWithGps({ seed: 21 }));
    const dir = await t.app.inject({
      method: 'POST',
      url: '/api/directory/getDirectory',
      payload: { country: 'united-kingdom', place: 'manchester' },
    });
    const card = dir.json().data.find((c: { id: number }) => c.id === id);
    expect(card.avatar).toMatchObject({ width: 900, height: 1200 });
    expect(card.avatar.src).toMatch(/-640\.jpg$/);
    expect(card.avatar.webp_srcset).toMatch(/-320\.webp 320w, .*-640\.webp 640w, .*-900\.webp 900w$/);
    const { profile } = (await t.app.inject({ method: 'GET', url: `/api/getProfile/${id}?render=1` })).json();
    expect(profile.gallery[0].picture.srcset).toMatch(/ 320w/);
    expect(profile.view).toMatch(/<source type="image\/webp" srcSet="[^"]+ 320w/);
    expect(profile.view).toMatch(/<img[^>]+width="900"[^>]+height="1200"|<img[^>]+height="1200"[^>]+width="900"/);
  });
});
