// Issue 44 item 11: the register form's date-of-birth hint must not contradict the edit overview, which later
// offers "Show my age" from that date. In every language the hint says the date itself is never shown and
// names the overview's own button, as that language's overview words it.
import { beforeAll, describe, expect, it } from 'vitest';
import type { i18n as I18n } from 'i18next';
import { MIN_AGE } from '#shared/constants.ts';
import { testI18n } from '#client/lib/test-i18n.ts';

let i18n: I18n;
beforeAll(async () => {
  i18n = await testI18n(['auth', 'edit']);
});

describe('the date-of-birth hint at registration', () => {
  it.each(['en', 'de', 'es', 'pt'])(
    '%s: names the overview’s “Show my age” and keeps the date itself unshown',
    (lng) => {
      const hint = i18n.t('auth:register.dateOfBirthHint', { age: MIN_AGE, lng });
      const button = i18n.t('edit:overview.showAge', { lng });
      expect(hint).toContain(String(MIN_AGE));
      expect(hint).toMatch(new RegExp(`[“„«"]${button}[”“»"]`));
    },
  );

  it('en: the whole sentence', () => {
    expect(i18n.t('auth:register.dateOfBirthHint', { age: MIN_AGE, lng: 'en' })).toBe(
      `We ask to make sure you are ${MIN_AGE} or older. The date itself is never shown; your age appears on your profile only if you choose “Show my age” later.`,
    );
  });
});
