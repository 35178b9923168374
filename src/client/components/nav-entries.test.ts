import { describe, expect, it } from 'vitest';
import type { CurrentUser } from '#client/lib/app-data.ts';
import { navEntries } from './nav-entries';

const user = (role: CurrentUser['role']): CurrentUser => ({
  user_id: 7,
  username: 'anna',
  role,
  language: 'en',
  complete: true,
  verify: 'none',
  email_verified: true,
  mobile_verified: false,
});
const keys = (entries: ReturnType<typeof navEntries>) => entries.map((e) => e.key);

describe('navEntries', () => {
  it('offers visitors the directory, joining and logging in, nothing of an account', () => {
    const k = keys(navEntries('visitor', null, null));
    expect(k).toEqual(
      expect.arrayContaining([
        'worldwide',
        'female',
        'male',
        'trans',
        'dom',
        'feed',
        'join',
        'login',
        'whatYouGet',
        'shop',
        'help',
      ]),
    );
    expect(k).not.toContain('logout');
    expect(k).not.toContain('admin');
    expect(k).not.toContain('editProfile');
  });

  it('offers advertisers their profile, edit, top-up, settings and logout, but no admin panel', () => {
    const entries = navEntries('advertiser', user('advertiser'), 'germany');
    const k = keys(entries);
    expect(k).toEqual(expect.arrayContaining(['yourProfile', 'editProfile', 'topup', 'accountSettings', 'logout']));
    expect(k).not.toContain('admin');
    expect(k).not.toContain('join');
    expect(entries.find((e) => e.key === 'yourProfile')?.to).toBe('/profile/7');
    // Spec section 2 "TopUp": the cart with a standard top-up put in it.
    expect(entries.find((e) => e.key === 'topup')?.to).toBe('/checkout/cart?add=standard_topup');
  });

  it('adds the admin panel for admins', () => {
    expect(keys(navEntries('admin', user('admin'), null))).toContain('admin');
  });

  it('keeps category links in the browsed country, else sends them to the country list', () => {
    expect(navEntries('visitor', null, 'spain').find((e) => e.key === 'trans')?.to).toBe('/trans/spain');
    expect(navEntries('visitor', null, null).find((e) => e.key === 'dom')?.to).toBe('/countries?category=dom');
  });
});
