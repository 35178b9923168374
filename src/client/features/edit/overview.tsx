// The top of /edit/{id} (GET /edit/getOverview/{id}/30): completeness with links to what is missing, ad
// status, position in the home city, balance, verification, and the last 30 days as a chart.
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { AVAILABLE_HOURS_MAX, type Overview as OverviewData } from '#shared/schemas/profile-edit.ts';
import { SECTION_OF_REQUIRED, menuLink } from '#shared/rules/edit-sections.ts';
import { formatDate } from '#shared/views/format.ts';
import { formatMinor } from '#client/lib/money-format.ts';
import { intlLocale } from '#shared/views/format.ts';
import { OVERVIEW_DAYS, useOverview, useSetAttribute, useSetAvailableNow } from './api';

// The chart library comes with the chart, after the rest of the page.
const StatsChart = lazy(() => import('./stats-chart').then((m) => ({ default: m.StatsChart })));

export function sectionHref(id: number, section: string) {
  return menuLink(section as never, id) ?? `/edit/${id}?edit=${section}`;
}

function Fact({ label, children, testId }: { label: string; children: React.ReactNode; testId?: string }) {
  return (
    <div className="overview__fact" data-testid={testId}>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

export function Overview({ id }: { id: number }) {
  const { t } = useTranslation('edit');
  const query = useOverview(id);
  const o = query.data;
  return (
    <section className="edit-card overview" aria-labelledby="overview-title" data-testid="overview">
      <h2 id="overview-title" className="edit-card__title">
        {t('overview.title')}
      </h2>
      {!o ? (
        <p className="muted" aria-busy={!query.error}>
          {query.error ? t('failed') : t('loading')}
        </p>
      ) : (
        <OverviewBody id={id} o={o} />
      )}
    </section>
  );
}

function OverviewBody({ id, o }: { id: number; o: OverviewData }) {
  const { t, i18n } = useTranslation('edit');
  return (
    <>
      <dl className="overview__facts">
        <Fact label={o.complete ? t('overview.complete') : t('overview.incomplete')} testId="overview-complete">
          {o.missing.length === 0 ? (
            <span className="overview__ok">✓</span>
          ) : (
            <>
              {t('overview.missing')}{' '}
              <span className="overview__missing">
                {o.missing.map((m, i) => (
                  <span key={m}>
                    {i > 0 && ', '}
                    <Link to={sectionHref(id, SECTION_OF_REQUIRED[m])}>{t(`required.${m}`)}</Link>
                  </span>
                ))}
              </span>
            </>
          )}
        </Fact>
        <Fact label={t('overview.adStatus')} testId="overview-status">
          <Link to={`/edit/${id}?edit=ad_status`}>
            {o.ad_status === 'visible' ? t('switch.visible') : t('switch.hidden')}
          </Link>
          {' · '}
          {o.listed ? t('overview.listed') : t('overview.notListed')}
          {o.flagged && <span className="overview__warn"> {t('overview.flagged')}</span>}
        </Fact>
        <Fact label={t('overview.position')} testId="overview-position">
          {o.position !== null && o.city ? (
            <Link to={`/edit/directory/listing/${id}`}>
              {t('overview.positionValue', { position: o.position, city: o.city.name })}
            </Link>
          ) : (
            t('overview.noPosition')
          )}
        </Fact>
        <Fact label={t('overview.available')} testId="overview-available">
          <AvailableNow id={id} until={o.available_until} />
        </Fact>
        <Fact label={t('overview.age')} testId="overview-age">
          <ShowAge id={id} age={o.age} />
        </Fact>
        <Fact label={t('overview.balance')} testId="overview-balance">
          {formatMinor(o.balance, o.currency, i18n.language)} ·{' '}
          <Link to={`/edit/load/${id}`}>{t('overview.loadCredits')}</Link>
        </Fact>
        <Fact label={t('overview.verification')} testId="overview-verification">
          <Link to={`/edit/verify/${id}`}>
            {o.verification.status === 'verified' && o.verification.verified_at
              ? t('overview.verified', { date: formatDate(o.verification.verified_at, i18n.language) })
              : t(`verification.${o.verification.status}`)}
          </Link>
        </Fact>
      </dl>
      <h3 className="overview__subtitle">{t('overview.stats', { days: OVERVIEW_DAYS })}</h3>
      <ul className="overview__totals">
        <li>
          <strong>{o.totals.impressions}</strong> {t('overview.impressions')}
        </li>
        <li>
          <strong>{o.totals.views}</strong> {t('overview.views')}
        </li>
        <li>
          <strong>{o.totals.phone_reveals}</strong> {t('overview.reveals')}
        </li>
      </ul>
      <Suspense fallback={<div className="stats-chart stats-chart--loading" aria-hidden="true" />}>
        <StatsChart stats={o.stats} />
      </Suspense>
    </>
  );
}

const HOUR_CHOICES = Array.from({ length: AVAILABLE_HOURS_MAX }, (_, i) => i + 1);
const DEFAULT_HOURS = 2;

/**
 * "Available now" in one tap (issue 27, item 3; docs/decisions/0320): the button switches it on for the
 * hours chosen beside it (2 unless changed); while on, its end and a button that ends it now.
 */
function AvailableNow({ id, until }: { id: number; until: string | null }) {
  const { t, i18n } = useTranslation('edit');
  const [hours, setHours] = useState(DEFAULT_HOURS);
  const set = useSetAvailableNow(id);
  if (until) {
    const time = new Date(until).toLocaleTimeString(intlLocale(i18n.language), { hour: '2-digit', minute: '2-digit' });
    return (
      <span className="overview__available">
        <span className="overview__ok" data-testid="available-until">
          {t('overview.availableUntil', { time })}
        </span>
        <button type="button" className="button" disabled={set.isPending} onClick={() => set.mutate(0)}>
          {t('overview.switchOff')}
        </button>
      </span>
    );
  }
  return (
    <span className="overview__available">
      <span className="muted">{t('overview.availableOff')}</span>
      <label className="overview__hours">
        <span className="visually-hidden">{t('overview.availableFor')}</span>
        <select value={hours} onChange={(e) => setHours(Number(e.target.value))} data-testid="available-hours">
          {HOUR_CHOICES.map((h) => (
            <option key={h} value={h}>
              {t('overview.hours', { count: h })}
            </option>
          ))}
        </select>
      </label>
      <button
        type="button"
        className="button button--primary"
        disabled={set.isPending}
        onClick={() => set.mutate(hours)}
        data-testid="available-on"
      >
        {t('overview.switchOn')}
      </button>
      <small className="muted overview__hint">{t('overview.availableHint')}</small>
    </span>
  );
}

/**
 * Her age on the profile, from the date of birth given at registration (issue 27, item 2; decision 0321):
 * off until she turns it on here, in one tap; "checked" once her ID verification matched it.
 */
function ShowAge({ id, age }: { id: number; age: OverviewData['age'] }) {
  const { t } = useTranslation('edit');
  const set = useSetAttribute(id);
  return (
    <span className="overview__available">
      <span>
        {t('overview.ageValue', { years: age.years })}{' '}
        <span className="muted" data-testid="age-state">
          {age.shown ? (age.checked ? t('overview.ageShownChecked') : t('overview.ageShown')) : t('overview.ageHidden')}
        </span>
      </span>
      <button
        type="button"
        className={age.shown ? 'button' : 'button button--primary'}
        disabled={set.isPending}
        onClick={() => set.mutate({ attribute: 'show_age', value: !age.shown })}
        data-testid="age-toggle"
      >
        {age.shown ? t('overview.hideAge') : t('overview.showAge')}
      </button>
    </span>
  );
}
