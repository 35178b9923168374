// The products and their prices as the database holds them (GET /payment/products), for /shop and
// /what-you-get. Only what is on sale is shown.
import { useQueryClient } from '@tanstack/react-query';
import type { MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { CSRF_COOKIE } from '#shared/constants.ts';
import type { Product } from '#shared/schemas/money.ts';
import { currentUserKey, fetchCurrentUser, useCurrentUser } from '#client/lib/app-data.ts';
import { readCookie } from '#client/lib/cookies.ts';
import { useProducts } from '../api';
import { Money, QueryState, useFormatMoney } from './money-parts';

/** Where buying a product starts: the cart for a top-up, the listings screen's "add a location" for a city. */
function buyPath(code: Product['code'], userId: number): string {
  return code === 'standard_topup' ? '/checkout/cart?add=standard_topup' : `/edit/directory/listing/${userId}?add=1`;
}

export function ProductList({ withActions = true }: { withActions?: boolean }) {
  const { t } = useTranslation('money');
  const products = useProducts();
  const { data: user, isPending: userPending } = useCurrentUser();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const format = useFormatMoney(products.data?.currency);
  // The page is drawn (and served) before the user's data arrives (spec: about 500 ms after start), so
  // its buttons start as a visitor's. A tap in that moment, with a session cookie, waits for the user
  // and then goes where her button leads, never to /register.
  const buy = (code: Product['code']) => (event: MouseEvent) => {
    if (!userPending || !readCookie(CSRF_COOKIE)) return;
    event.preventDefault();
    void queryClient
      .ensureQueryData({ queryKey: currentUserKey, queryFn: fetchCurrentUser })
      .then((me) => navigate(me ? buyPath(code, me.user_id) : '/register'));
  };
  if (!products.data) return <QueryState query={products} skeleton={2} />;
  const { data, currency, minimum_topup } = products.data;
  const onSale = data.filter((p) => p.active);
  return (
    <>
      <ul className="money-products" data-testid="products">
        {onSale.map((p) => (
          <li key={p.code} className="money-card money-product" data-testid="product" data-product={p.code}>
            <h3 className="money-product__name">{t(`products.${p.code}.name`)}</h3>
            <p className="money-product__price" data-testid="product-price">
              <Money amount={p.price} currency={currency} />
              {p.duration_days ? (
                <span className="muted small"> {t('shop.forDays', { count: p.duration_days })}</span>
              ) : null}
            </p>
            <p>{t(`products.${p.code}.description`, { days: p.duration_days ?? 0 })}</p>
            {withActions && (
              <Link
                className="button button--primary"
                to={user ? buyPath(p.code, user.user_id) : '/register'}
                onClick={buy(p.code)}
                data-testid="product-buy"
              >
                {user ? t(`products.${p.code}.buy`) : t('shop.join')}
              </Link>
            )}
          </li>
        ))}
      </ul>
      {onSale.length === 0 && <p className="empty">{t('shop.nothing')}</p>}
      <p className="small muted" data-testid="credits-note">
        {t('shop.credits', { minimum: format(minimum_topup) })}
      </p>
    </>
  );
}
