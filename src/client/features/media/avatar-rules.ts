// The avatar rule of DESIGN.md: the "Attention" rules come before every avatar upload, and above
// AVATAR_CHANGE_MAX_POSITION a change needs a top-up first ("Topup Required", to the cart with a
// standard top-up in it).
import { TOPUP_CART_PATH } from '#shared/constants.ts';
import { confirm, notify } from '#client/lib/dialogs.ts';
import { i18n } from '#client/lib/i18n.ts';

const t = (key: string, values?: Record<string, unknown>) => i18n.t(`media:${key}`, values);

export function showTopupRequired(message: string): Promise<boolean> {
  return notify({
    title: t('topup.title'),
    message,
    icon: 'warning',
    ok: t('topup.button'),
    cancel: t('cancel'),
    path: TOPUP_CART_PATH,
  });
}

export function topupMessage(position: number | null, max: number): string {
  return t('topup.message', { position: position ?? '?', max });
}

export function confirmAvatarRules(): Promise<boolean> {
  return confirm({
    title: t('attention.title'),
    message: t('attention.message'),
    confirm: t('attention.accept'),
    cancel: t('cancel'),
  });
}
