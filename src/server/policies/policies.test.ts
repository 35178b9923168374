// The rules themselves, one case each way; the access walk (modules/auth/access-walk.test.ts) proves
// every route asks them.
import { describe, expect, it } from 'vitest';
import { AppError } from '../lib/errors';
import * as policy from '.';

const owner = { id: 7, role: 'advertiser' as const };
const stranger = { id: 8, role: 'advertiser' as const };
const admin = { id: 1, role: 'admin' as const };

describe('policies', () => {
  it('lets the owner and an admin change an account, its profile, media and money; not a stranger', () => {
    for (const subject of [policy.account(7), policy.profile(7), policy.media(7), policy.money(7)]) {
      expect(policy.can(owner, 'update', subject)).toBe(true);
      expect(policy.can(admin, 'update', subject)).toBe(true);
      expect(policy.can(stranger, 'update', subject)).toBe(false);
      expect(policy.can(null, 'update', subject)).toBe(false);
    }
  });

  it('shows a listed profile to anyone and an unlisted one to its owner and admins only', () => {
    expect(policy.can(null, 'read', policy.profile(7, true))).toBe(true);
    expect(policy.can(stranger, 'read', policy.profile(7, false))).toBe(false);
    expect(policy.can(owner, 'read', policy.profile(7, false))).toBe(true);
    expect(policy.can(admin, 'read', policy.profile(7, false))).toBe(true);
  });

  it('gives the admin-only actions to admins alone, owners included out', () => {
    expect(policy.can(admin, 'administer', policy.site)).toBe(true);
    expect(policy.can(owner, 'administer', policy.site)).toBe(false);
    expect(policy.can(owner, 'adjust', policy.money(7))).toBe(false);
    expect(policy.can(admin, 'adjust', policy.money(7))).toBe(true);
    expect(policy.can(owner, 'replaceAvatarFreely', policy.media(7))).toBe(false);
    expect(policy.can(admin, 'replaceAvatarFreely', policy.media(7))).toBe(true);
  });

  it('lets the profile owner and admins moderate its comments, and any signed-in account post', () => {
    expect(policy.can(owner, 'moderate', policy.comments(7))).toBe(true);
    expect(policy.can(stranger, 'moderate', policy.comments(7))).toBe(false);
    expect(policy.can(stranger, 'post', policy.comments(7))).toBe(true);
    expect(policy.can(null, 'post', policy.comments(7))).toBe(false);
  });

  it('authorize answers 401 to a visitor, 403 to a stranger and hands back the allowed actor', () => {
    const status = (fn: () => unknown) => {
      try {
        fn();
      } catch (err) {
        return (err as AppError).statusCode;
      }
      return 200;
    };
    expect(status(() => policy.authorize(null, 'update', policy.profile(7)))).toBe(401);
    expect(status(() => policy.authorize(stranger, 'update', policy.profile(7)))).toBe(403);
    expect(policy.authorize(owner, 'update', policy.profile(7))).toBe(owner);
  });
});
