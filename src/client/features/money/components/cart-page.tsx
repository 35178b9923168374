// /checkout/cart (spec sections 2 and 3 "Cart"): the items, the balance, the minimum top-up, the amount
// to pay and the new balance, and the position the profile holds now. `?add=standard_topup` puts a
// standard top-up in the cart (the menu's TopUp entry and the media screens' "Topup Required" lead
// here); `?payment={id}` shows what became of a payment the payer comes back from.
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import type { CartItem } from '#shared/schemas/money.ts';
import { useCurrentUser } from '#client/lib/app-data.ts';
import { ApiError, report } from '#client/lib/api.ts';
import { formatDate } from '#client/lib/format.ts';
import {
  newIdempotencyKey,
  useAddToCart,
  useMakePayment,
  usePaymentData,
  useRemoveCartItem,
  type PaymentResult,
} from '../api';
import { CartSummary, HoldNote, Money, PositionLine, QueryState, useFormatMoney } from './money-parts';
import { PaymentOutcome, PaymentResultPanel } from './payment-outcome';

export function CartPage() {
  const { t } = useTranslation('money');
  const data = usePaymentData();
  const [params, setParams] = useSearchParams();
  const add = useAddToCart();
  const paymentId = Number(params.get('payment')) || null;

  // ?add= is a one-shot instruction: done once, then dropped from the address (a reload adds nothing).
  const adding = useRef(false);
  const wanted = params.get('add');
  useEffect(() => {
    if (wanted !== 'standard_topup') {
      // Armed again for the next time the menu's TopUp leads here.
      adding.current = false;
      return;
    }
    if (adding.current || !data.data) return;
    adding.current = true;
    add.mutate({ uid: 'standard_topup' });
    setParams(
      (p) => {
        p.delete('add');
        return p;
      },
      { replace: true },
    );
  }, [wanted, data.data, add, setParams]);

  return (
    <section className="container container--narrow money" data-testid="cart-page">
      <header className="money__head">
        <h1>{t('cart.title')}</h1>
        {data.data && <PositionLine position={data.data.position} />}
      </header>
      {paymentId && <PaymentOutcome paymentId={paymentId} />}
      {data.data ? <CartBody /> : <QueryState query={data} />}
    </section>
  );
}

function CartBody() {
  const { t } = useTranslation('money');
  const { data } = usePaymentData();
  const { data: user } = useCurrentUser();
  const add = useAddToCart();
  const pay = useMakePayment();
  const [paid, setPaid] = useState<PaymentResult | null>(null);
  const format = useFormatMoney(data?.currency);
  // One key per intended payment: a double click or a retry after a lost answer pays once.
  const key = useRef(newIdempotencyKey());
  if (!data) return null;
  const cart = data.cart;
  const hasTopup = cart.items.some((i) => i.product === 'standard_topup');
  const topupOnSale = data.products.some((p) => p.code === 'standard_topup' && p.active);

  const payFromBalance = () =>
    pay.mutate(
      { method: 'balance', idempotency_key: key.current, expected_total: cart.total },
      {
        onSuccess: (result) => {
          setPaid(result);
          key.current = newIdempotencyKey();
        },
        onError: (error) => {
          if (error instanceof ApiError) report(error);
          key.current = newIdempotencyKey();
        },
      },
    );

  return (
    <>
      <HoldNote hold={data.hold} />
      {paid && <PaymentResultPanel result={paid} />}
      <div className="money-card">
        <h2 className="money-card__title">{t('cart.items')}</h2>
        {cart.items.length ? (
          <ul className="money-items" data-testid="cart-items">
            {cart.items.map((item) => (
              <CartLine
                key={item.uid}
                item={item}
                currency={cart.currency}
                days={data.products.find((p) => p.code === item.product)?.duration_days ?? null}
              />
            ))}
          </ul>
        ) : (
          <p className="empty" data-testid="cart-empty">
            {t('cart.empty')}
          </p>
        )}
        {!hasTopup && topupOnSale && (
          <button
            type="button"
            className="button"
            data-testid="add-topup"
            disabled={add.isPending}
            onClick={() => add.mutate({ uid: 'standard_topup' })}
          >
            {t('cart.addTopup')}
          </button>
        )}
      </div>

      <div className="money-card">
        <CartSummary cart={cart} />
        {cart.amount_to_pay > 0 && (
          <p className="small muted" data-testid="minimum-note">
            {t('cart.minimumNote', { minimum: format(cart.minimum_topup) })}
          </p>
        )}
        <div className="actions">
          {cart.items.length > 0 && cart.amount_to_pay === 0 && (
            <button
              type="button"
              className="button button--primary button--large"
              data-testid="pay-balance"
              disabled={pay.isPending}
              onClick={payFromBalance}
            >
              {t('cart.payFromBalance')}
            </button>
          )}
          {cart.items.length > 0 && cart.amount_to_pay > 0 && (
            <Link className="button button--primary button--large" to="/checkout/method" data-testid="to-method">
              {t('cart.toMethod')}
            </Link>
          )}
          {user && (
            <Link className="button" to={`/edit/load/${user.user_id}`}>
              {t('links.load')}
            </Link>
          )}
          {user && (
            <Link className="button button--ghost" to={`/transactions/${user.user_id}`}>
              {t('links.transactions')}
            </Link>
          )}
        </div>
      </div>
    </>
  );
}

function CartLine({ item, currency, days }: { item: CartItem; currency: string; days: number | null }) {
  const { t, i18n } = useTranslation('money');
  const remove = useRemoveCartItem();
  const name = t(`products.${item.product}.name`);
  return (
    <li className="money-item" data-testid="cart-item" data-product={item.product}>
      <div className="money-item__text">
        <strong>{name}</strong>
        <span className="small muted">
          {item.city
            ? item.from || item.until
              ? t('cart.tour', {
                  city: item.city.name,
                  from: item.from ? formatDate(item.from, i18n.language) : '…',
                  until: item.until ? formatDate(item.until, i18n.language) : '…',
                })
              : t('cart.location', { city: item.city.name, count: days ?? 0 })
            : t(`products.${item.product}.short`)}
        </span>
      </div>
      <Money amount={item.price} currency={currency} />
      <button
        type="button"
        className="button button--ghost money-item__remove"
        aria-label={t('cart.removeLabel', { name })}
        disabled={remove.isPending}
        onClick={() => remove.mutate(item.uid)}
      >
        {t('cart.remove')}
      </button>
    </li>
  );
}
