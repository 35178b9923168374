// The phone number on the edit screens (docs/decisions/0311): the sentence a refused number gets, a
// saved number the rule now refuses (shown with its reason above the menu), and "Same as my phone" for
// the messengers that reach a number.
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { checkPhone, formatPhone, phoneRefusalMessage } from '#shared/rules/phone.ts';

/** Why `value` is refused as a number, in the page's language; null when it is accepted. */
export function phoneRefusalText(t: TFunction, value: string, label: string): string | null {
  const checked = checkPhone(value);
  if (checked.ok) return null;
  const { key, values } = phoneRefusalMessage(checked);
  return String(t(key, { ...values, label }));
}

/**
 * Above the edit menu: a saved number the rule refuses (one kept before the rule, or seeded), with the
 * reason and the way to the Phone section. Nothing while the number is accepted or missing.
 */
export function SavedPhoneNotice({ id, phone }: { id: number; phone: string | null }) {
  const { t } = useTranslation('edit');
  if (!phone) return null;
  const reason = phoneRefusalText(t, phone, t('fields.phone'));
  if (!reason) return null;
  return (
    <div className="edit__note edit-phone-notice" role="alert" data-testid="saved-phone-refused">
      <p>{t('hints.phoneSaved', { phone, reason })}</p>
      <Link className="button" to={`/edit/${id}?edit=phone`}>
        {t('links.fixPhone')}
      </Link>
    </div>
  );
}

/** The number as the field shows it: a kept E.164 number grouped, anything else as it was typed. */
export const shownPhone = (value: string | null | undefined) => (value ? formatPhone(value) : '');

/** Copies her saved phone number into a messenger's field. Nothing when she has no number saved. */
export function SameAsPhoneButton({ phone, onCopy }: { phone: string | null; onCopy: (number: string) => void }) {
  const { t } = useTranslation('edit');
  if (!phone || !checkPhone(phone).ok) return null;
  return (
    <button
      type="button"
      className="button edit-same-phone"
      data-testid="same-as-phone"
      onClick={() => onCopy(formatPhone(phone))}
    >
      {t('links.sameAsPhone')}
    </button>
  );
}
