// /shop (DESIGN.md "Other screens"): the products with their prices from the database.
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ProductList } from './product-list';

export function ShopPage() {
  const { t } = useTranslation('money');
  return (
    <section className="container container--narrow money" data-testid="shop-page">
      <header className="money__head">
        <h1>{t('shop.title')}</h1>
        <p className="lead">{t('shop.lead')}</p>
      </header>
      <ProductList />
      <p>
        <Link to="/what-you-get">{t('shop.whatYouGet')}</Link>
      </p>
    </section>
  );
}
