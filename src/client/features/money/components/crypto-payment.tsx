// Paying with crypto (DESIGN.md "Money"): an invoice is opened for the amount; the screen then follows it
// (?payment={id}: address, amount, expiry countdown) until the processor's signed webhook settles it.
import { useTranslation } from 'react-i18next';
import type { PayOutcome, PayRequest } from './pay-attempt';

export function CryptoPayment({
  busy,
  submit,
}: {
  busy: boolean;
  submit: (request: PayRequest) => Promise<PayOutcome | null>;
}) {
  const { t } = useTranslation('money');
  return (
    <div className="money-crypto" data-testid="crypto-payment">
      <p>{t('crypto.intro')}</p>
      <button
        type="button"
        className="button button--primary button--large"
        data-testid="create-invoice"
        disabled={busy}
        onClick={() => void submit({ method: 'crypto' })}
      >
        {t('crypto.create')}
      </button>
    </div>
  );
}
