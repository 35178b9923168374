// /edit/load/{id} (spec section 2: "loading credits by bank transfer"): the advertiser's reference and the
// site's account for a transfer, and card and crypto loads that only load (purpose `load`: the cart is
// left as it is, decision 0406). An admin may open anyone's to read the reference; only the owner pays
// from here.
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import type { LoadMethod } from '#shared/schemas/money.ts';
import { useCurrentUser } from '#client/lib/app-data.ts';
import { isOpen, usePayment, usePaymentData } from '../api';
import { BankTransfer } from './bank-transfer';
import { LoadMethods } from './load-methods';
import { HoldNote, Money, QueryState } from './money-parts';
import { PaymentOutcome } from './payment-outcome';

export function LoadPage() {
  const { t } = useTranslation('money');
  const userId = Number(useParams().id);
  const [params] = useSearchParams();
  const paymentId = Number(params.get('payment')) || null;
  const { data: user } = useCurrentUser();
  const own = !!user && user.user_id === userId;
  // While a payment is under way (an invoice, a confirmation step) it is the screen; no second one.
  const following = usePayment(paymentId);

  return (
    <section className="container container--narrow money" data-testid="load-page">
      <header className="money__head">
        <h1>{t('load.title')}</h1>
        <p className="lead">{t('load.lead')}</p>
      </header>
      {paymentId && <PaymentOutcome paymentId={paymentId} />}
      {/* Back from a payment: the form opens on the method just used, once that payment is known. */}
      {(paymentId && following.isPending) || isOpen(following.data) ? null : user && !own ? (
        <div className="money-card">
          <p className="money-note" role="note">
            {t('load.ofUser', { id: userId })}
          </p>
          <BankTransfer userId={userId} />
        </div>
      ) : (
        <OwnLoad userId={userId} initial={following.data?.payment?.method ?? 'bank'} />
      )}
    </section>
  );
}

function OwnLoad({ userId, initial }: { userId: number; initial: LoadMethod }) {
  const { t } = useTranslation('money');
  const data = usePaymentData();
  if (!data.data) return <QueryState query={data} />;
  const cart = data.data.cart;
  return (
    <>
      <HoldNote hold={data.data.hold} />
      <div className="money-card money-balance">
        <p>
          {t('summary.balance')}:{' '}
          <strong data-testid="load-balance">
            <Money amount={data.data.balance} currency={data.data.currency} />
          </strong>
        </p>
        <p className="actions">
          <Link className="button button--ghost" to={`/transactions/${userId}`}>
            {t('links.transactions')}
          </Link>
          <Link className="button button--ghost" to={`/edit/auto-topup/${userId}`}>
            {t('links.autoTopup')}
          </Link>
        </p>
      </div>
      {cart.items.length > 0 && (
        <p className="money-note" role="note" data-testid="load-cart-note">
          {t('load.cartWaiting', { count: cart.items.length })} <Link to="/checkout/cart">{t('links.cart')}</Link>
        </p>
      )}
      {/* Load Credits only loads: whatever is in the cart stays there (decision 0406). */}
      <LoadMethods
        data={data.data}
        userId={userId}
        initial={initial}
        returnPath={`/edit/load/${userId}`}
        purpose="load"
      />
    </>
  );
}
