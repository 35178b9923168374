// /checkout/method (spec section 2): how to pay what the cart needs (purpose `cart`: load what is missing,
// then pay), or to load credits when the cart is empty or the balance covers it (purpose `load`: the cart
// stays, decision 0406): card (on the acquirer's payment page), crypto (an invoice) or bank transfer.
// From the acquirer's page a cart payment comes back to the cart, a load back here (?payment={id}); a
// crypto invoice is followed here.
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useCurrentUser } from '#client/lib/app-data.ts';
import { isOpen, usePayment, usePaymentData } from '../api';
import { LoadMethods } from './load-methods';
import { CartSummary, QueryState } from './money-parts';
import { PaymentOutcome } from './payment-outcome';

const paysCart = (cart: { items: unknown[]; amount_to_pay: number }) => cart.items.length > 0 && cart.amount_to_pay > 0;

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
            // A cart payment comes back to the cart it paid (issue 26), a load from here back here.
            returnPath={paysCart(data.data.cart) ? '/checkout/cart' : '/checkout/method'}
            purpose={paysCart(data.data.cart) ? 'cart' : 'load'}
          />
        </>
      )}
    </section>
  );
}
