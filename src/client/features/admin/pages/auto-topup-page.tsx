// /admin/auto-topup: every timer with its days and local time, the next and the last run, and the
// failed or missed runs of the last 30 days (GET /admin/getAutoTopup?page). Every time of a row is in the
// timer's own zone (its home city's, UTC without one), named once in that row: the runs happen on the
// advertiser's clock, and the admin's browser zone beside it read as a second, contradicting time.
import { useTranslation } from 'react-i18next';
import { InlineSpinner } from '#client/components/spinner.tsx';
import { useAppConfig } from '#client/lib/app-data.ts';
import { formatMinor } from '#client/lib/money-format.ts';
import { openAdminModal } from '../admin-modal-store';
import { useAutoTopups } from '../api';
import { AdminFrame, Empty, Pager, usePage } from '../parts';

export function AutoTopupPage() {
  const { t, i18n } = useTranslation('admin');
  const [page, setPage] = usePage();
  const { data } = useAutoTopups(page);
  const lang = i18n.language === 'en' ? 'en-GB' : i18n.language;
  const zoned = (iso: string | null | undefined, timeZone: string) =>
    iso
      ? new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(new Date(iso))
      : '–';
  const currency = useAppConfig().data?.currency ?? 'EUR';
  const day = (n: number) =>
    new Intl.DateTimeFormat(i18n.language, { weekday: 'short', timeZone: 'UTC' }).format(
      new Date(Date.UTC(2024, 0, n)), // 2024-01-01 was a Monday
    );
  return (
    <AdminFrame title={t('autoTopup.title')} lead={t('autoTopup.lead')}>
      {!data ? (
        <InlineSpinner label={t('loading')} />
      ) : data.data.length === 0 ? (
        <Empty>{t('autoTopup.empty')}</Empty>
      ) : (
        <div className="admin-table-wrap">
          <table className="table admin-table">
            <thead>
              <tr>
                <th>{t('autoTopup.who')}</th>
                <th>{t('autoTopup.when')}</th>
                <th>{t('autoTopup.budget')}</th>
                <th>{t('autoTopup.next')}</th>
                <th>{t('autoTopup.last')}</th>
                <th>{t('autoTopup.failures')}</th>
              </tr>
            </thead>
            <tbody>
              {data.data.map((timer) => {
                const zone = timer.timezone ?? 'UTC';
                return (
                  <tr key={timer.id} className={timer.enabled ? undefined : 'muted'} data-zone={zone}>
                    <td data-label={t('autoTopup.who')}>
                      <button type="button" className="link-button" onClick={() => openAdminModal(timer.user_id)}>
                        {timer.screen_name ?? `#${timer.user_id}`}
                      </button>
                    </td>
                    <td data-label={t('autoTopup.when')}>
                      {timer.weekdays.map(day).join(', ')} {timer.time}{' '}
                      <span className="muted small">{t('autoTopup.zone', { zone })}</span>
                      {!timer.enabled && <span className="badge">{t('autoTopup.off')}</span>}
                    </td>
                    <td data-label={t('autoTopup.budget')}>
                      {timer.weekly_budget === null ? '–' : formatMinor(timer.weekly_budget, currency, i18n.language)}
                    </td>
                    <td data-label={t('autoTopup.next')}>{zoned(timer.next_run, zone)}</td>
                    <td data-label={t('autoTopup.last')}>
                      {timer.last_run
                        ? `${zoned(timer.last_run.slot_at, zone)} · ${t(`autoTopup.runStatus.${timer.last_run.status}`)}`
                        : '–'}
                    </td>
                    <td data-label={t('autoTopup.failures')} className={timer.failures ? 'admin__declined' : undefined}>
                      {timer.failures}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {data && <Pager page={page} hasMore={data.has_more} onPage={setPage} />}
    </AdminFrame>
  );
}
