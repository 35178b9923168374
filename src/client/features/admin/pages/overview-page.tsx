// /admin/overview: the counts of the moment and 30-day charts (GET /admin/getOverview).
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Overview } from '#shared/schemas/admin.ts';
import { InlineSpinner } from '#client/components/spinner.tsx';
import { formatMinor } from '#client/lib/money-format.ts';
import { useOverview } from '../api';
import { AdminFrame, Bars } from '../parts';

type SeriesKey = keyof Overview['series'];

export function OverviewPage() {
  const { t, i18n } = useTranslation('admin');
  const { data } = useOverview();
  if (!data)
    return (
      <AdminFrame title={t('overview.title')}>
        <InlineSpinner label={t('loading')} />
      </AdminFrame>
    );
  const c = data.counts;
  const money = (v: number) => formatMinor(v, data.currency, i18n.language);
  const tiles: Array<{ key: SeriesKey; value: string; note?: string; to?: string }> = [
    {
      key: 'new_accounts',
      value: String(c.new_accounts_30d),
      note: t('overview.accountsTotal', { count: c.accounts }),
    },
    { key: 'listed_profiles', value: String(c.listed_profiles) },
    {
      key: 'pending_verifications',
      value: String(c.pending_verifications),
      note:
        c.oldest_pending_verification_hours === null
          ? t('overview.noneWaiting')
          : t('overview.oldest', { count: c.oldest_pending_verification_hours }),
      to: '/admin/verify',
    },
    { key: 'pending_videos', value: String(c.pending_videos), to: '/admin/videos' },
    { key: 'open_reports', value: String(c.open_reports), to: '/admin/reports' },
    { key: 'credits_loaded', value: money(c.credits_loaded_30d), note: t('overview.last30') },
    { key: 'credits_spent', value: money(c.credits_spent_30d), note: t('overview.last30') },
    { key: 'active_timers', value: String(c.active_timers), to: '/admin/auto-topup' },
    { key: 'failed_runs', value: String(c.failed_runs_30d), note: t('overview.last30'), to: '/admin/auto-topup' },
  ];
  const reasons = Object.entries(c.open_reports_by_reason).sort((a, b) => b[1] - a[1]);
  return (
    <AdminFrame title={t('overview.title')}>
      <div className="admin-tiles">
        {tiles.map((tile) => (
          <section key={tile.key} className="admin-tile" data-testid={`tile-${tile.key}`}>
            <h2 className="admin-tile__label">
              {tile.to ? (
                <Link to={tile.to}>{t(`overview.series.${tile.key}`)}</Link>
              ) : (
                t(`overview.series.${tile.key}`)
              )}
            </h2>
            <p className="admin-tile__value">{tile.value}</p>
            {tile.note && <p className="admin-tile__note muted small">{tile.note}</p>}
            <Bars
              values={data.series[tile.key]}
              days={data.days}
              label={t('overview.chart', { what: t(`overview.series.${tile.key}`) })}
            />
          </section>
        ))}
        <section className="admin-tile">
          <h2 className="admin-tile__label">
            <Link to="/admin/reports">{t('overview.byReason')}</Link>
          </h2>
          {reasons.length ? (
            <ul className="admin-tile__list">
              {reasons.map(([reason, n]) => (
                <li key={reason}>
                  <span>{t(`reportReasons.${reason}`, { defaultValue: reason })}</span> <strong>{n}</strong>
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted small">{t('overview.noReports')}</p>
          )}
        </section>
        <section className="admin-tile">
          <h2 className="admin-tile__label">
            <Link to="/admin/duplicates">{t('overview.duplicates')}</Link>
          </h2>
          <p className="admin-tile__value">{c.open_duplicates}</p>
        </section>
      </div>
      <p className="muted small">{t('overview.utc', { from: data.days[0], until: data.days[data.days.length - 1] })}</p>
    </AdminFrame>
  );
}
