// The edit menu in groups (issue 23, item 8): the spec's entries all kept, each in exactly one group,
// the groups named in every language, and "Your Likes" said to mean the services.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EDIT_MENU, EDIT_MENU_GROUPS } from './edit-sections';

const I18N = path.join(import.meta.dirname, '..', 'i18n');
const menuTexts = (lang: string) =>
  (JSON.parse(fs.readFileSync(path.join(I18N, lang, 'edit.json'), 'utf8')) as { menu: Record<string, unknown> }).menu;

describe('edit menu groups', () => {
  it('are Profile, Photos and video, Location and tours, Money, Account, then the admin entries', () => {
    expect(EDIT_MENU_GROUPS.map((g) => g.id)).toEqual(['profile', 'media', 'location', 'money', 'account', 'admin']);
    const groups = menuTexts('en').groups as Record<string, string>;
    expect(EDIT_MENU_GROUPS.map((g) => groups[g.id])).toEqual([
      'Profile',
      'Photos and video',
      'Location and tours',
      'Money',
      'Account',
      'Admin',
    ]);
  });

  it("hold every one of the spec's 23 entries exactly once, and nothing else", () => {
    const grouped = EDIT_MENU_GROUPS.flatMap((g) => g.entries as readonly string[]);
    expect(grouped).toHaveLength(EDIT_MENU.length);
    expect([...grouped].sort()).toEqual(EDIT_MENU.map((e) => e.id).sort());
    expect(EDIT_MENU).toHaveLength(23);
  });

  it('keep the admin-only entries (Warn, Directory Admin) alone in the admin group', () => {
    const admin = EDIT_MENU.filter((e) => e.kind === 'admin').map((e) => e.id);
    expect(EDIT_MENU_GROUPS.find((g) => g.id === 'admin')?.entries).toEqual(admin);
  });

  it.each([
    ['en', 'Your Likes (services)'],
    ['de', 'Deine Vorlieben (Services)'],
    ['es', 'Tus gustos (servicios)'],
  ])('are named in %s, and Your Likes says it means services', (lang, services) => {
    const menu = menuTexts(lang);
    expect(menu.services).toBe(services);
    const groups = menu.groups as Record<string, string>;
    for (const g of EDIT_MENU_GROUPS) expect(groups[g.id], `${lang} ${g.id}`).toMatch(/\S/);
  });
});
