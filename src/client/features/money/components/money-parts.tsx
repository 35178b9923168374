// Small pieces every money screen shares: amounts in the reader's notation, the summary of a cart,
// the position line, the sandbox marker and the state of a screen whose data is not in yet.
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { UseQueryResult } from '@tanstack/react-query';
import { ApiError } from '#client/lib/api.ts';
import { openLoginModal } from '#client/lib/dialogs.ts';
import type { Cart } from '../api';
import type { PaymentData } from '#shared/schemas/money.ts';
import '../money.css';
import { formatMinor } from '#client/lib/money-format.ts';

/** An amount of minor units in the site currency, written for the reader. */
export function Money({ amount, currency, signed }: { amount: number; currency: string; signed?: boolean }) {
  const { i18n } = useTranslation();
  return <span className="money-amount">{formatMinor(amount, currency, i18n.language, signed)}</span>;
}

/** The formatter bound to the reader's language, for texts that interpolate amounts. */
export function useFormatMoney(currency: string | undefined) {
  const { i18n } = useTranslation();
  return (amount: number) => formatMinor(amount, currency ?? 'EUR', i18n.language);
}

/** Balance, total, minimum top-up, amount to pay and new balance (spec section 3 "Cart"). */
export function CartSummary({ cart }: { cart: Cart }) {
  const { t } = useTranslation('money');
  const rows: Array<[string, number, string?]> = [
    ['balance', cart.balance],
    ['total', cart.total],
    ['minimumTopup', cart.minimum_topup],
    ['amountToPay', cart.amount_to_pay, 'money-summary__row--pay'],
    ['newBalance', cart.new_balance],
  ];
  return (
    <dl className="money-summary" data-testid="cart-summary">
      {rows.map(([key, amount, extra]) => (
        <div key={key} className={`money-summary__row${extra ? ` ${extra}` : ''}`} data-testid={`summary-${key}`}>
          <dt>{t(`summary.${key}`)}</dt>
          <dd>
            <Money amount={amount} currency={cart.currency} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** Where the profile stands in its home city (DESIGN.md "Directory and position"). */
export function PositionLine({ position }: { position: number | null }) {
  const { t } = useTranslation('money');
  return (
    <p className="money-position" data-testid="position">
      {position === null ? (
        t('position.notListed')
      ) : (
        <>
          {t('position.label')} <strong className="money-position__value">{position}</strong>
          {position === 1 ? <span className="muted"> {t('position.top')}</span> : null}
        </>
      )}
    </p>
  );
}

/** Her account is held (decision 0423): why, and that loading credits still works. */
export function HoldNote({ hold }: { hold: PaymentData['hold'] }) {
  const { t } = useTranslation('money');
  if (!hold) return null;
  return (
    <div className="money-note money-note--alert" role="alert" data-testid="hold-note">
      <strong>{t('hold.title')}</strong> {t(`hold.${hold.reason}`)}
    </div>
  );
}

/** The built-in test provider is said to be one, wherever it is offered (DESIGN.md "Money"). */
export function SandboxNote({ children }: { children?: ReactNode }) {
  const { t } = useTranslation('money');
  return (
    <div className="money-sandbox" role="note" data-testid="sandbox-note">
      <strong className="money-sandbox__badge">{t('sandbox.badge')}</strong> {t('sandbox.text')}
      {children}
    </div>
  );
}

/** The screen while its data loads or after it failed (the API client has told the reader why). */
export function QueryState({ query, skeleton = 2 }: { query: UseQueryResult<unknown>; skeleton?: number }) {
  const { t } = useTranslation('money');
  if (query.isPending)
    return (
      <div aria-busy="true">
        {Array.from({ length: skeleton }, (_, i) => (
          <div key={i} className="money-card money-card--skeleton" />
        ))}
      </div>
    );
  const status = query.error instanceof ApiError ? query.error.status : 0;
  return (
    <div className="money-card" role="alert">
      <p>{status === 401 ? t('page.signIn') : status === 403 ? t('page.forbidden') : t('page.failed')}</p>
      {status === 401 ? (
        <button type="button" className="button button--primary" onClick={openLoginModal}>
          {t('page.login')}
        </button>
      ) : (
        <button type="button" className="button" onClick={() => void query.refetch()}>
          {t('page.retry')}
        </button>
      )}
    </div>
  );
}
