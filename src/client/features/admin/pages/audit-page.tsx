// The audit log: every admin action (who, what, when, on whom, before and after), newest first,
// filtered by action family, actor, target and days. The filter lives in the address.
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { AuditLogBody, type AuditEntry } from '#shared/schemas/admin.ts';
import { Form, SubmitButton, TextField, useSchemaForm } from '#client/components/form/index.ts';
import { InlineSpinner } from '#client/components/spinner.tsx';
import { openAdminModal } from '../admin-modal-store';
import { useAuditLog } from '../api';
import { AdminFrame, Empty, Pager, useDates, usePage } from '../parts';

const numberOrUndefined = (v: unknown) => {
  const n = typeof v === 'number' ? v : Number.parseInt(String(v ?? ''), 10);
  return Number.isFinite(n) && n > 0 ? n : undefined;
};
const textOrUndefined = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);

/** The filter of the address (?action=&actor=&target=&from=&until=), as the call's body. */
function useFilter(): [AuditLogBody, (f: AuditLogBody) => void] {
  const [params, setParams] = useSearchParams();
  const parsed = AuditLogBody.safeParse({
    action: textOrUndefined(params.get('action')),
    actor_id: numberOrUndefined(params.get('actor')),
    target_user_id: numberOrUndefined(params.get('target')),
    from: textOrUndefined(params.get('from')),
    until: textOrUndefined(params.get('until')),
  });
  const filter = parsed.success ? parsed.data : {};
  const set = (f: AuditLogBody) => {
    const next = new URLSearchParams();
    if (f.action) next.set('action', f.action);
    if (f.actor_id) next.set('actor', String(f.actor_id));
    if (f.target_user_id) next.set('target', String(f.target_user_id));
    if (f.from) next.set('from', f.from);
    if (f.until) next.set('until', f.until);
    setParams(next);
  };
  return [filter, set];
}

export function AuditPage() {
  const { t } = useTranslation('admin');
  const [filter, setFilter] = useFilter();
  const [page, setPage] = usePage();
  const { data } = useAuditLog(filter, page);
  return (
    <AdminFrame title={t('audit.title')} lead={t('audit.lead')}>
      <FilterForm key={JSON.stringify(filter)} filter={filter} onFilter={setFilter} />
      {!data ? (
        <InlineSpinner label={t('loading')} />
      ) : data.data.length === 0 ? (
        <Empty>{t('audit.empty')}</Empty>
      ) : (
        <ol className="admin-list admin-audit" data-testid="audit-entries">
          {data.data.map((e) => (
            <li key={e.id}>
              <Entry entry={e} />
            </li>
          ))}
        </ol>
      )}
      {data && <Pager page={page} hasMore={data.has_more} onPage={setPage} />}
    </AdminFrame>
  );
}

function FilterForm({ filter, onFilter }: { filter: AuditLogBody; onFilter: (f: AuditLogBody) => void }) {
  const { t } = useTranslation('admin');
  const form = useSchemaForm(AuditLogBody, {
    defaultValues: filter,
    labels: {
      action: t('audit.filter.action'),
      actor_id: t('audit.filter.actor'),
      target_user_id: t('audit.filter.target'),
      from: t('audit.filter.from'),
      until: t('audit.filter.until'),
    },
  });
  const opts = { setValueAs: numberOrUndefined };
  return (
    <Form form={form} className="admin-filter" onSubmit={(body) => onFilter(body)}>
      <TextField form={form} name="action" list="audit-actions" registerOptions={{ setValueAs: textOrUndefined }} />
      <datalist id="audit-actions">
        {['user', 'verification', 'video', 'report', 'duplicate', 'money'].map((a) => (
          <option key={a} value={a} />
        ))}
      </datalist>
      <TextField form={form} name="actor_id" inputMode="numeric" registerOptions={opts} />
      <TextField form={form} name="target_user_id" inputMode="numeric" registerOptions={opts} />
      <TextField form={form} name="from" type="date" registerOptions={{ setValueAs: textOrUndefined }} />
      <TextField form={form} name="until" type="date" registerOptions={{ setValueAs: textOrUndefined }} />
      <div className="admin-filter__actions">
        <SubmitButton form={form}>{t('audit.filter.apply')}</SubmitButton>
        <button type="button" className="button" onClick={() => onFilter({})}>
          {t('audit.filter.clear')}
        </button>
      </div>
    </Form>
  );
}

const show = (v: unknown) =>
  v === null || v === undefined ? '–' : typeof v === 'object' ? JSON.stringify(v) : String(v);

function Entry({ entry }: { entry: AuditEntry }) {
  const { t } = useTranslation('admin');
  const { dateTime } = useDates();
  const person = (p: AuditEntry['actor']) => (p ? p.screen_name || p.username || `#${p.id}` : '–');
  const keys = [...new Set([...Object.keys(entry.before ?? {}), ...Object.keys(entry.after ?? {})])];
  const extra = Object.entries(entry.data).filter(([, v]) => v !== null && v !== undefined && v !== '');
  return (
    <article className="admin-card admin-card--flat" data-testid={`audit-${entry.action}`}>
      <header className="admin-card__head">
        <strong>{t(`audit.actions.${entry.action.replace(/\./g, '_')}`, { defaultValue: entry.action })}</strong>
        <code className="small muted">{entry.action}</code>
        <time className="muted small" dateTime={entry.created_at}>
          {dateTime(entry.created_at)}
        </time>
      </header>
      <p className="small">
        {t('audit.by', { who: person(entry.actor) })}
        {entry.target && (
          <>
            {' · '}
            {t('audit.on')}{' '}
            <button type="button" className="link-button" onClick={() => openAdminModal(entry.target!.id)}>
              {person(entry.target)}
            </button>
          </>
        )}
      </p>
      {keys.length > 0 && (
        <dl className="admin-audit__changes small">
          {keys.map((k) => (
            <div key={k}>
              <dt>{k}</dt>
              <dd>
                {show(entry.before?.[k])} → {show(entry.after?.[k])}
              </dd>
            </div>
          ))}
        </dl>
      )}
      {extra.length > 0 && (
        <p className="muted small admin-audit__data">{extra.map(([k, v]) => `${k}: ${show(v)}`).join(' · ')}</p>
      )}
    </article>
  );
}
