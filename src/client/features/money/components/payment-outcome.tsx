// What became of a payment, followed live: a crypto invoice until its webhook arrives, a card paid on the
// acquirer's page until its notification arrives. Shown where the payer comes back (?payment={id}).
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useCurrentUser } from '#client/lib/app-data.ts';
import { InlineSpinner } from '#client/components/spinner.tsx';
import { receiptUrl, usePayment, type PaymentResult } from '../api';
import { CryptoInvoice } from './crypto-invoice';
import { Money, PositionLine, useFormatMoney } from './money-parts';

export function PaymentOutcome({ paymentId }: { paymentId: number }) {
  const payment = usePayment(paymentId);
  if (!payment.data) return payment.isPending ? <PaymentWaiting /> : null;
  return <PaymentResultPanel result={payment.data} />;
}

function PaymentWaiting() {
  const { t } = useTranslation('money');
  return (
    <div className="money-card" data-testid="payment-outcome" data-status="loading">
      <InlineSpinner label={t('outcome.loading')} />
    </div>
  );
}

export function PaymentResultPanel({ result }: { result: PaymentResult }) {
  const { t, i18n } = useTranslation('money');
  const { data: user } = useCurrentUser();
  const currency = result.cart.currency;
  const format = useFormatMoney(currency);
  const payment = result.payment;
  const ok = result.status === 'paid' || result.status === 'loaded';
  const tone = ok ? 'ok' : result.status === 'failed' ? 'failed' : 'open';
  return (
    <div
      className={`money-card money-outcome money-outcome--${tone}`}
      data-testid="payment-outcome"
      data-status={result.status}
      role={ok || result.status === 'failed' ? 'status' : undefined}
    >
      <h2 className="money-card__title">{t(`outcome.${result.status}.title`)}</h2>
      {result.status === 'paid' && (
        <>
          <p>{t('outcome.paid.text', { total: format(result.order?.total ?? 0) })}</p>
          <PositionLine position={result.position} />
        </>
      )}
      {result.status === 'loaded' && payment && <p>{t('outcome.loaded.text', { amount: format(payment.amount) })}</p>}
      {result.status === 'pending' && payment?.invoice && (
        <CryptoInvoice invoice={payment.invoice} paymentId={payment.id} amount={payment.amount} currency={currency} />
      )}
      {result.status === 'pending' && !payment?.invoice && (
        <p>
          <InlineSpinner label={t('outcome.pending.text')} />
        </p>
      )}
      {result.status === 'requires_action' && (
        <p>
          <InlineSpinner label={t('outcome.requires_action.text')} />
        </p>
      )}
      {result.status === 'requires_action' && payment?.next_action && (
        <p>
          <a className="button" href={payment.next_action.url} data-testid="back-to-payment-page">
            {t('outcome.requires_action.action')}
          </a>
        </p>
      )}
      {result.status === 'failed' && <p>{t('outcome.failed.text')}</p>}
      <p className="money-outcome__balance">
        {t('summary.balance')}: <Money amount={result.balance} currency={currency} />
      </p>
      {(ok || result.status === 'failed') && (
        <p className="actions">
          {ok && user && (
            <Link className="button" to={`/transactions/${user.user_id}`}>
              {t('links.transactions')}
            </Link>
          )}
          {ok && payment?.status === 'succeeded' && (
            // A credited load has its receipt (decision 0422), here as on /transactions.
            <a className="button" href={receiptUrl(payment.id, i18n.language)} data-testid="outcome-receipt">
              {t('receipt.link')}
            </a>
          )}
          {ok && user && (
            <Link className="button" to={`/profile/${user.user_id}`}>
              {t('links.profile')}
            </Link>
          )}
          {!ok && (
            <Link className="button" to="/checkout/method">
              {t('outcome.failed.retry')}
            </Link>
          )}
        </p>
      )}
    </div>
  );
}
