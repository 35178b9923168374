// The profile as people see it, in the reader's language: the words an advertiser chose from lists
// (services, personality) are catalogue keys and must never reach the page as raw English keys.
import i18next, { type i18n as I18n } from 'i18next';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadResources } from '../i18n/index';
import type { Profile } from '../schemas/directory';
import { ProfileView } from './profile-view';

const profile: Profile = {
  user_id: 7,
  title: 'Anna',
  can_edit: false,
  screen_name: 'Anna',
  heading: null,
  about: null,
  gender: 'Female',
  sexuality: null,
  services: ['massage'],
  personality: ['friendly', 'open_minded', 'discreet'],
  languages: [],
  currency: 'EUR',
  phone: null,
  landmark: null,
  city: null,
  place: null,
  tours: [],
  comments_enabled: false,
  dominatrix: false,
  links: {},
  availability: {},
  rates: { incall: {}, outcall: {} },
  verified: false,
  verified_at: null,
  available_until: null,
  age: null,
  views: 0,
  last_seen: null,
  avatar: null,
  gallery: [],
  video: null,
  poster: null,
};

let i18n: I18n;
beforeAll(async () => {
  // No fallback language: a missing text would show as its key, not as English.
  i18n = i18next.createInstance();
  await i18n.init({ resources: await loadResources(), lng: 'en', fallbackLng: false, ns: ['directory'] });
});

function personalityRow(lng: string): string {
  const t = i18n.getFixedT(lng, 'directory');
  const html = renderToStaticMarkup(createElement(ProfileView, { profile, t, lang: lng }));
  const row = /<div class="details__row" data-detail="personality"><dt>([^<]*)<\/dt><dd>([^<]*)<\/dd>/.exec(html);
  if (!row) throw new Error(`no personality row in ${html}`);
  return `${row[1]}: ${row[2]}`;
}

describe('ProfileView personality', () => {
  it.each([
    ['en', 'Personality: Friendly, Open-minded, Discreet'],
    ['de', 'Persönlichkeit: Freundlich, Aufgeschlossen, Diskret'],
    ['es', 'Personalidad: Amable, De mente abierta, Discreta'],
  ])('is translated like the services in %s', (lng, expected) => {
    expect(personalityRow(lng)).toBe(expected);
  });
});
