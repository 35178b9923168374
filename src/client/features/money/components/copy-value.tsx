import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { copyText } from '#client/lib/share.ts';

/** A value to be typed elsewhere (a reference, an IBAN, an address) with a copy button beside it. */
export function CopyValue({ label, value, testId }: { label: string; value: string; testId?: string }) {
  const { t } = useTranslation('money');
  const [copied, setCopied] = useState<boolean | null>(null);
  return (
    <div className="money-copy" data-testid={testId}>
      <dt>{label}</dt>
      <dd>
        <code className="money-copy__value">{value}</code>
        <button
          type="button"
          className="button button--ghost money-copy__button"
          aria-label={t('copy.label', { label })}
          onClick={() => void copyText(value).then(setCopied)}
        >
          {copied === null ? t('copy.copy') : copied ? t('copy.copied') : t('copy.failed')}
        </button>
      </dd>
    </div>
  );
}
