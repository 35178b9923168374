// Reports from the directory's report form (and Get Help messages): "may be under 18" and "may not be
// there of their own free will" first, then the oldest. Resolve with a note and an action.
import { useTranslation } from 'react-i18next';
import { REPORT_ACTIONS, ResolveReportBody, type Report } from '#shared/schemas/admin.ts';
import { Field, Form, SubmitButton, useSchemaForm } from '#client/components/form/index.ts';
import { InlineSpinner } from '#client/components/spinner.tsx';
import { confirm } from '#client/lib/dialogs.ts';
import { useReports, useResolveReport } from '../api';
import { AdminFrame, Chips, Empty, Pager, PersonLine, useDates, usePage, useQueryParam } from '../parts';

const STATUSES = ['open', 'resolved'] as const;
type Status = (typeof STATUSES)[number];

export function ReportsPage() {
  const { t } = useTranslation('admin');
  const [raw, setStatus] = useQueryParam('status', 'open');
  const status: Status = raw === 'resolved' ? 'resolved' : 'open';
  const [page, setPage] = usePage();
  const { data } = useReports(status, page);
  return (
    <AdminFrame title={t('reports.title')} lead={t('reports.lead')}>
      <Chips
        label={t('reports.statusLabel')}
        value={status}
        options={STATUSES.map((s) => [s, t(`reports.status.${s}`)] as const)}
        onChange={setStatus}
      />
      {!data ? (
        <InlineSpinner label={t('loading')} />
      ) : data.data.length === 0 ? (
        <Empty>{t(`reports.empty.${status}`)}</Empty>
      ) : (
        <>
          <p className="muted small">{t('reports.count', { count: data.total })}</p>
          <ul className="admin-list">
            {data.data.map((r) => (
              <li key={r.id}>
                <ReportCard report={r} />
              </li>
            ))}
          </ul>
        </>
      )}
      {data && <Pager page={page} hasMore={data.has_more} onPage={setPage} />}
    </AdminFrame>
  );
}

function ReportCard({ report }: { report: Report }) {
  const { t } = useTranslation('admin');
  const { dateTime } = useDates();
  return (
    <article className={`admin-card${report.urgent ? ' admin-card--urgent' : ''}`} data-testid={`report-${report.id}`}>
      <header className="admin-card__head">
        {report.urgent && <span className="badge badge--danger">{t('reports.urgent')}</span>}
        <strong>{t(`reportReasons.${report.reason}`, { defaultValue: report.reason })}</strong>
        <span className="muted small">
          {t('reports.age', { count: report.age_hours })} · {dateTime(report.created_at)}
        </span>
      </header>
      {report.message && <p className="admin-card__message">{report.message}</p>}
      {report.contact && <p className="muted small">{t('reports.contact', { contact: report.contact })}</p>}
      {report.profile ? <PersonLine user={report.profile} /> : <p className="muted small">{t('reports.noProfile')}</p>}
      {report.status === 'open' ? (
        <ResolveForm report={report} />
      ) : (
        <p className="admin__ok">
          {t('reports.resolved', {
            date: dateTime(report.resolved_at),
            action: t(`reports.actions.${report.resolution_action ?? 'none'}`),
          })}
          {report.resolution_note && <span className="admin-card__note"> “{report.resolution_note}”</span>}
        </p>
      )}
    </article>
  );
}

function ResolveForm({ report }: { report: Report }) {
  const { t } = useTranslation('admin');
  const resolve = useResolveReport();
  const form = useSchemaForm(ResolveReportBody, {
    defaultValues: { report_id: report.id, action: 'none' as const, note: '' },
    labels: { action: t('reports.action'), note: t('reports.note') },
  });
  const actions = report.profile ? REPORT_ACTIONS : (['none'] as const);
  const submit = async (body: ResolveReportBody) => {
    if (body.action === 'warn') {
      const name = report.profile?.screen_name ?? report.profile?.username ?? '';
      const ok = await confirm({
        title: t('modal.warnConfirmTitle'),
        message: t('modal.warnConfirmMessage', { name }),
        confirm: t('modal.warnConfirm'),
        cancel: t('modal.cancel'),
      });
      if (!ok) return;
    }
    await resolve.mutateAsync(body);
  };
  return (
    <Form form={form} className="admin-resolve" onSubmit={submit}>
      <Field form={form} name="action">
        {(control) => (
          <select className="field__input" {...control}>
            {actions.map((a) => (
              <option key={a} value={a}>
                {t(`reports.actions.${a}`)}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field form={form} name="note">
        {(control) => <textarea className="field__input" rows={2} {...control} />}
      </Field>
      <SubmitButton form={form}>{t('reports.resolve')}</SubmitButton>
    </Form>
  );
}
