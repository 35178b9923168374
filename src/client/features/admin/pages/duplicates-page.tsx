// Pictures of two different accounts whose perceptual hashes are near: a possible stolen photo or
// impersonation. Both pictures and both accounts side by side; dismiss a false match.
import { useTranslation } from 'react-i18next';
import type { DuplicateMatch } from '#shared/schemas/admin.ts';
import { PictureImage } from '#shared/views/picture.tsx';
import { InlineSpinner } from '#client/components/spinner.tsx';
import { useDismissDuplicate, useDuplicates, useScanDuplicates } from '../api';
import { AdminFrame, Chips, Empty, Pager, PersonLine, useDates, usePage, useQueryParam } from '../parts';

const STATUSES = ['open', 'dismissed'] as const;
type Status = (typeof STATUSES)[number];

export function DuplicatesPage() {
  const { t } = useTranslation('admin');
  const [raw, setStatus] = useQueryParam('status', 'open');
  const status: Status = raw === 'dismissed' ? 'dismissed' : 'open';
  const [page, setPage] = usePage();
  const { data } = useDuplicates(status, page);
  const scan = useScanDuplicates();
  return (
    <AdminFrame title={t('duplicates.title')} lead={t('duplicates.lead')}>
      <div className="admin-toolbar">
        <Chips
          label={t('duplicates.statusLabel')}
          value={status}
          options={STATUSES.map((s) => [s, t(`duplicates.status.${s}`)] as const)}
          onChange={setStatus}
        />
        <button
          type="button"
          className="button"
          disabled={scan.isPending}
          onClick={() => void scan.mutateAsync().catch(() => undefined)}
        >
          {t('duplicates.scan')}
        </button>
        {scan.data && (
          <span role="status" className="muted small">
            {t('duplicates.found', { count: scan.data.found })}
          </span>
        )}
      </div>
      {!data ? (
        <InlineSpinner label={t('loading')} />
      ) : data.data.length === 0 ? (
        <Empty>{t(`duplicates.empty.${status}`)}</Empty>
      ) : (
        <ul className="admin-list">
          {data.data.map((m) => (
            <li key={m.id}>
              <MatchCard match={m} />
            </li>
          ))}
        </ul>
      )}
      {data && <Pager page={page} hasMore={data.has_more} onPage={setPage} />}
    </AdminFrame>
  );
}

function MatchCard({ match }: { match: DuplicateMatch }) {
  const { t } = useTranslation('admin');
  const { dateTime } = useDates();
  const dismiss = useDismissDuplicate();
  const side = (which: 'newer' | 'older') => {
    const s = match[which];
    return (
      <figure className="admin-dup__side">
        <PictureImage picture={s.picture} sizes="(max-width: 567px) 45vw, 280px" alt={t(`duplicates.${which}`)} />
        <figcaption>
          <strong>{t(`duplicates.${which}`)}</strong>{' '}
          <span className="muted small">
            {t(`duplicates.types.${s.type}`)} · {dateTime(s.uploaded_at)}
          </span>
          <PersonLine user={s.user} compact />
        </figcaption>
      </figure>
    );
  };
  return (
    <article className="admin-card" data-testid={`duplicate-${match.id}`}>
      <p className="muted small">{t('duplicates.distance', { count: match.distance })}</p>
      <div className="admin-compare">
        {side('newer')}
        {side('older')}
      </div>
      {match.status === 'open' && (
        <div className="admin-decide">
          <button
            type="button"
            className="button"
            disabled={dismiss.isPending}
            onClick={() => void dismiss.mutateAsync(match.id).catch(() => undefined)}
          >
            {t('duplicates.dismiss')}
          </button>
        </div>
      )}
    </article>
  );
}
