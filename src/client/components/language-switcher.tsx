// The menu's language switcher (spec section 1, docs/decisions/0601): remembers the choice on this
// device and, for a signed-in user, saves it on the account. Each language is named in itself.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, type Language } from '#shared/constants.ts';
import { isLanguage } from '#shared/rules/language.ts';
import { currentUserKey, type CurrentUser } from '#client/lib/app-data.ts';
import { api } from '#client/lib/api.ts';
import { chooseLanguage, displayedLanguage } from '#client/lib/i18n.ts';

const autonym = (code: string) => {
  try {
    const name = new Intl.DisplayNames([code], { type: 'language' }).of(code) ?? code;
    return name.charAt(0).toLocaleUpperCase(code) + name.slice(1);
  } catch {
    return code;
  }
};

export function LanguageSwitcher({ user }: { user: CurrentUser | null }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const [, rerender] = useState(0);
  const save = useMutation({
    mutationFn: (language: Language) =>
      api(`/account/${user!.user_id}/language`, { method: 'POST', body: { language } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: currentUserKey }),
  });
  const value = displayedLanguage(user?.language ?? null);
  return (
    <label className="lang-switch" data-lang={i18n.language}>
      <span className="visually-hidden">{t('nav.language')}</span>
      <select
        className="lang-switch__select"
        value={value}
        data-testid="language-switcher"
        onChange={(event) => {
          const language = event.target.value;
          if (!isLanguage(language)) return;
          void chooseLanguage(language).then(() => rerender((n) => n + 1));
          if (user) save.mutate(language);
        }}
      >
        {LANGUAGES.map((code) => (
          <option key={code} value={code} lang={code}>
            {autonym(code)}
          </option>
        ))}
      </select>
    </label>
  );
}
