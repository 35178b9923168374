import { describe, expect, it } from 'vitest';
import { legacyRedirect, matchRoute } from './routes.ts';

describe('matchRoute: the route table decides what a path is, for the server as for the client', () => {
  it('resolves public, edit and admin paths with their parameters', () => {
    expect(matchRoute('/')?.route.name).toBe('home');
    expect(matchRoute('/profile/42')).toMatchObject({ route: { name: 'profile' }, params: { id: '42' } });
    expect(matchRoute('/@Anna%20B')).toMatchObject({ route: { name: 'profile-by-name' }, params: { name: 'Anna B' } });
    expect(matchRoute('/escorts/nearby')?.route.name).toBe('nearby');
    expect(matchRoute('/escorts/united-kingdom')).toMatchObject({
      route: { name: 'escorts' },
      params: { country: 'united-kingdom' },
    });
    expect(matchRoute('/dom/germany/berlin')).toMatchObject({
      route: { name: 'dom' },
      params: { country: 'germany', place: 'berlin' },
    });
    expect(matchRoute('/edit/directory/listing/7')).toMatchObject({ route: { name: 'edit-listing' } });
    expect(matchRoute('/admin/users')?.route.admin).toBe(true);
  });

  it('knows no unknown path', () => {
    expect(matchRoute('/no/such/path')).toBeNull();
    expect(matchRoute('/escorts/uk/london/extra')).toBeNull();
    expect(matchRoute('/profile')).toBeNull();
  });

  it('moves /all/ to /escorts/ and nothing else', () => {
    expect(legacyRedirect('/all/united-kingdom/london?x=1')).toBe('/escorts/united-kingdom/london?x=1');
    expect(legacyRedirect('/escorts/united-kingdom')).toBeNull();
  });
});
