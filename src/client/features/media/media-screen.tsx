// What the three media screens share: the account in the path, whether an admin acts for someone,
// the frame with its title and tabs, and the loading and error states of a query.
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { useCurrentUser } from '#client/lib/app-data.ts';
import { ApiError } from '#client/lib/api.ts';
import { MediaNav } from './media-nav';
import './media.css';

export function useMediaTarget() {
  const id = Number(useParams().id);
  const { data: user } = useCurrentUser();
  const self = !user || user.user_id === id;
  return { id, self };
}

export function MediaFrame({
  id,
  self,
  title,
  lead,
  testId,
  children,
}: {
  id: number;
  self: boolean;
  title: string;
  lead?: ReactNode;
  testId: string;
  children: ReactNode;
}) {
  const { t } = useTranslation('media');
  return (
    <section className="container media" data-testid={testId}>
      <MediaNav id={id} />
      <header className="media__head">
        <h1>{title}</h1>
        {lead && <p className="lead">{lead}</p>}
      </header>
      {!self && (
        <p className="media__note" role="note">
          {t('page.adminNote', { id })}
        </p>
      )}
      {children}
    </section>
  );
}

/** Skeleton while loading; a message and a retry button when the query failed. */
export function QueryState({ error, retry }: { error: unknown; retry: () => void }) {
  const { t } = useTranslation('media');
  if (!error)
    return (
      <div className="media-card media-card--skeleton" aria-busy="true">
        <span className="visually-hidden">{t('page.loading')}</span>
      </div>
    );
  const status = error instanceof ApiError ? error.status : 0;
  return (
    <div className="media-card" role="alert">
      <p>{status === 403 ? t('page.forbidden') : t('page.failed')}</p>
      <button type="button" className="button" onClick={retry}>
        {t('page.retry')}
      </button>
    </div>
  );
}
