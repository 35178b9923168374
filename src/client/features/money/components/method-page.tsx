// /checkout/method (spec section 2): how to pay what the cart needs (purpose `cart`: load what is missing,
// then pay), or to load credits when the cart is empty or the balance covers it (purpose `load`: the cart
// stays, decision 0406): card (through the provider's tokenizer), crypto (an invoice) or bank transfer.
// The payer comes back here from a card's confirmation step with ?payment={id}, and a crypto invoice is
// followed here.
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useCurrentUser } from '#client/lib/app-data.ts';
import { isOpen, usePayment, usePaymentData } from '../api';
import { LoadMethods } from './load-methods';
import { CartSummary, QueryState } from './money-parts';
import { PaymentOutcome } from './payment-outcome';

export function MethodPage() {
  const { t } = useTranslation('money');
  const [params] = useSearchParams();
  const paymentId = Number(params.get('payment')) || null;
  const data = usePaymentData();
  const { data: user } = useCurrentUser();
  // While a payment is under way (an invoice, a confirmation step) it is the screen; no second one.
  const following = usePayment(paymentId);
  const cart = data.data?.cart;

  return (
    <section className="container container--narrow money" data-testid="method-page">
      <header className="money__head">
        <h1>{t('method.title')}</h1>
        {cart && (
          <p className="lead">
            {cart.items.length
              ? cart.amount_to_pay > 0
                ? t('method.leadCart')
                : t('method.leadCovered')
              : t('method.leadLoad')}
          </p>
        )}
      </header>
      {paymentId && <PaymentOutcome paymentId={paymentId} />}
      {isOpen(following.data) ? null : !data.data || !user ? (
        <QueryState query={data} />
      ) : (
        <>
          {data.data.cart.items.length > 0 && (
            <div className="money-card">
              <CartSummary cart={data.data.cart} />
              <Link to="/checkout/cart">{t('method.backToCart')}</Link>
            </div>
          )}
          <LoadMethods
            data={data.data}
            userId={user.user_id}
            initial="card"
            returnPath="/checkout/method"
            purpose={data.data.cart.items.length > 0 && data.data.cart.amount_to_pay > 0 ? 'cart' : 'load'}
          />
        </>
      )}
    </section>
  );
}
