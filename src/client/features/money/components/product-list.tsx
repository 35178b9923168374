// The products and their prices as the database holds them (GET /payment/products), for /shop and
// /what-you-get. Only what is on sale is shown.
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Product } from '#shared/schemas/money.ts';
import { useCurrentUser } from '#client/lib/app-data.ts';
import { useProducts } from '../api';
import { Money, QueryState, useFormatMoney } from './money-parts';

/** Where buying a product starts: the cart for a top-up, the listings screen's "add a location" for a city. */
function buyPath(code: Product['code'], userId: number): string {
  return code === 'standard_topup' ? '/checkout/cart?add=standard_topup' : `/edit/directory/listing/${userId}?add=1`;
}

export function ProductList({ withActions = true }: { withActions?: boolean }) {
  const { t } = useTranslation('money');
  const products = useProducts();
  const { data: user } = useCurrentUser();
  const format = useFormatMoney(products.data?.currency);
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
