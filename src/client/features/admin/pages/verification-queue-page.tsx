// /admin/verify: verification requests by status (pending first, the oldest on top): the avatar and
// the photo ID side by side; verify, or decline with one of the spec's six reasons.
import { useTranslation } from 'react-i18next';
import { DECLINE_REASONS } from '#shared/constants.ts';
import { VerifyBody, type VerificationItem } from '#shared/schemas/admin.ts';
import { PictureImage } from '#shared/views/picture.tsx';
import { Field, Form, SubmitButton, useSchemaForm } from '#client/components/form/index.ts';
import { InlineSpinner } from '#client/components/spinner.tsx';
import { useVerificationQueue, useVerify } from '../api';
import { AdminFrame, Chips, Empty, Pager, PersonLine, useDates, usePage, useQueryParam } from '../parts';

const STATUSES = ['pending', 'verified', 'declined'] as const;
type Status = (typeof STATUSES)[number];

export function VerificationQueuePage() {
  const { t } = useTranslation('admin');
  const [raw, setStatus] = useQueryParam('status', 'pending');
  const status: Status = (STATUSES as readonly string[]).includes(raw) ? (raw as Status) : 'pending';
  const [page, setPage] = usePage();
  const { data } = useVerificationQueue(status, page);
  return (
    <AdminFrame title={t('verify.title')} lead={t('verify.lead')}>
      <Chips
        label={t('verify.statusLabel')}
        value={status}
        options={STATUSES.map((s) => [s, t(`verification.${s}`)] as const)}
        onChange={setStatus}
      />
      {!data ? (
        <InlineSpinner label={t('loading')} />
      ) : data.data.length === 0 ? (
        <Empty>{t(`verify.empty.${status}`)}</Empty>
      ) : (
        <>
          <p className="muted small">{t('verify.count', { count: data.total })}</p>
          <ul className="admin-list">
            {data.data.map((item) => (
              <li key={item.id}>
                <RequestCard item={item} />
              </li>
            ))}
          </ul>
        </>
      )}
      {data && <Pager page={page} hasMore={data.has_more} onPage={setPage} />}
    </AdminFrame>
  );
}

function RequestCard({ item }: { item: VerificationItem }) {
  const { t } = useTranslation('admin');
  const { dateTime, date } = useDates();
  const verify = useVerify();
  return (
    <article className="admin-card" data-testid={`verification-${item.id}`}>
      <PersonLine user={item.user} />
      <p className="muted small">{t('verify.sent', { date: dateTime(item.created_at) })}</p>
      <div className="admin-compare">
        <figure>
          {item.user.avatar ? (
            <PictureImage picture={item.user.avatar} sizes="(max-width: 567px) 45vw, 280px" alt={t('verify.avatar')} />
          ) : (
            <span className="admin-compare__none">{t('verify.noAvatar')}</span>
          )}
          <figcaption>{t('verify.avatar')}</figcaption>
        </figure>
        <figure>
          {item.photo_id_url ? (
            <img src={item.photo_id_url} alt={t('verify.photoId')} loading="lazy" />
          ) : (
            <span className="admin-compare__none">{t('verify.photoIdDeleted')}</span>
          )}
          <figcaption>{t('verify.photoId')}</figcaption>
        </figure>
      </div>
      {item.status === 'pending' ? (
        <div className="admin-decide">
          <button
            type="button"
            className="button button--primary"
            disabled={verify.isPending}
            onClick={() =>
              void verify.mutateAsync({ request_id: item.id, decision: 'verified' }).catch(() => undefined)
            }
          >
            {t('verify.verify')}
          </button>
          <DeclineForm requestId={item.id} />
        </div>
      ) : (
        <p className={item.status === 'verified' ? 'admin__ok' : 'admin__declined'}>
          {t(`verify.decided.${item.status}`, { date: dateTime(item.decided_at) })}
          {item.decline_reason && ` ${t(`declineReasons.${item.decline_reason}`)}`}
          {item.photo_id_delete_after && (
            <span className="muted small">
              {' '}
              {t(item.photo_id_url ? 'verify.idDeletedOn' : 'verify.idDeleted', {
                date: date(item.photo_id_delete_after),
              })}
            </span>
          )}
        </p>
      )}
    </article>
  );
}

function DeclineForm({ requestId }: { requestId: number }) {
  const { t } = useTranslation('admin');
  const verify = useVerify();
  const form = useSchemaForm(VerifyBody, {
    defaultValues: { request_id: requestId, decision: 'declined' as const, reason: undefined },
    labels: { reason: t('verify.reason') },
  });
  return (
    <Form form={form} className="admin-inline-form" onSubmit={(body) => verify.mutateAsync(body)}>
      <Field form={form} name="reason" registerOptions={{ setValueAs: (v: string) => v || undefined }}>
        {(control) => (
          <select className="field__input" {...control} defaultValue="">
            <option value="">{t('verify.chooseReason')}</option>
            {DECLINE_REASONS.map((r) => (
              <option key={r} value={r}>
                {t(`declineReasons.${r}`)}
              </option>
            ))}
          </select>
        )}
      </Field>
      <SubmitButton form={form} className="admin__danger">
        {t('verify.decline')}
      </SubmitButton>
    </Form>
  );
}
