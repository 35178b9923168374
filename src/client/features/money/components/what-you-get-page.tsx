// /what-you-get (DESIGN.md "Other screens" and "Directory and position"): what an advertiser gets, the
// whole rule that orders the lists (no hidden boosts), and the prices from the database.
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ADDITIONAL_LOCATION_DAYS, AVATAR_CHANGE_MAX_POSITION, GALLERY_MAX } from '#shared/constants.ts';
import { useCurrentUser } from '#client/lib/app-data.ts';
import { RankingRule } from './ranking-rule';
import { ProductList } from './product-list';

const BENEFITS = ['profile', 'media', 'listed', 'verified', 'stats', 'position', 'locations', 'autoTopup'] as const;

export function WhatYouGetPage() {
  const { t } = useTranslation('money');
  const { data: user } = useCurrentUser();
  return (
    <section className="container container--narrow money" data-testid="what-you-get-page">
      <header className="money__head">
        <h1>{t('whatYouGet.title')}</h1>
        <p className="lead">{t('whatYouGet.lead')}</p>
      </header>
      <div className="money-card">
        <h2 className="money-card__title">{t('whatYouGet.benefitsTitle')}</h2>
        <ul className="money-benefits" data-testid="benefits">
          {BENEFITS.map((b) => (
            <li key={b}>
              {t(`whatYouGet.benefits.${b}`, {
                gallery: GALLERY_MAX,
                days: ADDITIONAL_LOCATION_DAYS,
                position: AVATAR_CHANGE_MAX_POSITION,
              })}
            </li>
          ))}
        </ul>
      </div>
      <RankingRule />
      <h2 className="money-section-title">{t('whatYouGet.pricesTitle')}</h2>
      <ProductList />
      {!user && (
        <p>
          <Link to="/register" className="button button--primary">
            {t('whatYouGet.join')}
          </Link>
        </p>
      )}
    </section>
  );
}
