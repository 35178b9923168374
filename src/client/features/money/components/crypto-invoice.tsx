// An open crypto invoice (DESIGN.md "Money"): where to send how much, until when. The payment is
// settled by the processor's signed webhook; the screen polls meanwhile (usePayment). The sandbox
// processor offers a "simulate payment" control that pays the invoice as a wallet would.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import type { CryptoInvoice as Invoice } from '#shared/schemas/money.ts';
import { moneyKeys } from '../api';
import { CopyValue } from './copy-value';
import { Money, SandboxNote } from './money-parts';

function useSecondsLeft(until: string): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, []);
  return Math.max(0, Math.floor((new Date(until).getTime() - now) / 1000));
}

/** 3725 -> "1:02:05", 65 -> "1:05". */
export function formatCountdown(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = String(seconds % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

export function CryptoInvoice({
  invoice,
  paymentId,
  amount,
  currency,
}: {
  invoice: Invoice;
  paymentId: number;
  amount: number;
  currency: string;
}) {
  const { t } = useTranslation('money');
  const queryClient = useQueryClient();
  const left = useSecondsLeft(invoice.expires_at);
  const [simulating, setSimulating] = useState(false);
  const [simulateFailed, setSimulateFailed] = useState(false);

  const simulate = async () => {
    if (!invoice.simulate_url) return;
    setSimulating(true);
    setSimulateFailed(false);
    try {
      // The sandbox processor's own control, like a wallet paying: not our API.
      const res = await fetch(invoice.simulate_url, { method: 'POST', credentials: 'omit' });
      if (!res.ok) setSimulateFailed(true);
    } catch {
      setSimulateFailed(true);
    } finally {
      setSimulating(false);
      await queryClient.invalidateQueries({ queryKey: moneyKeys.payment(paymentId) });
    }
  };

  return (
    <div className="money-invoice" data-testid="crypto-invoice">
      {invoice.simulate_url && <SandboxNote />}
      <p>
        {t('crypto.send')} <Money amount={amount} currency={currency} />
      </p>
      <dl className="money-copies">
        <CopyValue
          label={t('crypto.amount')}
          value={`${invoice.crypto_amount} ${invoice.crypto_currency}`}
          testId="invoice-amount"
        />
        <CopyValue label={t('crypto.address')} value={invoice.address} testId="invoice-address" />
      </dl>
      <p className="money-invoice__expiry" data-testid="invoice-expiry" aria-live="off">
        {left > 0 ? t('crypto.expiresIn', { time: formatCountdown(left) }) : t('crypto.expired')}
      </p>
      <div className="actions">
        {invoice.checkout_url && (
          <a className="button" href={invoice.checkout_url} target="_blank" rel="noopener noreferrer">
            {t('crypto.checkout')}
          </a>
        )}
        {invoice.simulate_url && (
          <button
            type="button"
            className="button button--primary"
            data-testid="simulate-payment"
            disabled={simulating}
            onClick={() => void simulate()}
          >
            {t('crypto.simulate')}
          </button>
        )}
      </div>
      {simulateFailed && (
        <p className="money-error" role="alert">
          {t('crypto.simulateFailed')}
        </p>
      )}
      <p className="small muted">{t('crypto.watching')}</p>
    </div>
  );
}
