// /admin/videos: videos waiting for approval, oldest first: play, approve (it becomes public on the
// profile) or reject (its files are deleted; the owner sees that it was refused).
import { useTranslation } from 'react-i18next';
import { VerifyVideoBody, type PendingVideo } from '#shared/schemas/admin.ts';
import { Form, SubmitButton, TextField, useSchemaForm } from '#client/components/form/index.ts';
import { InlineSpinner } from '#client/components/spinner.tsx';
import { openAdminModal } from '../admin-modal-store';
import { useVerifyVideo, useVideoQueue } from '../api';
import { AdminFrame, Empty, Pager, useDates, usePage } from '../parts';

export function VideosPage() {
  const { t } = useTranslation('admin');
  const [page, setPage] = usePage();
  const { data } = useVideoQueue(page);
  return (
    <AdminFrame title={t('videos.title')} lead={t('videos.lead')}>
      {!data ? (
        <InlineSpinner label={t('loading')} />
      ) : data.data.length === 0 ? (
        <Empty>{t('videos.empty')}</Empty>
      ) : (
        <ul className="admin-list admin-list--grid">
          {data.data.map((v) => (
            <li key={v.id}>
              <VideoCard video={v} />
            </li>
          ))}
        </ul>
      )}
      {data && <Pager page={page} hasMore={data.has_more} onPage={setPage} />}
    </AdminFrame>
  );
}

function VideoCard({ video }: { video: PendingVideo }) {
  const { t } = useTranslation('admin');
  const { dateTime } = useDates();
  const decide = useVerifyVideo();
  const form = useSchemaForm(VerifyVideoBody, {
    defaultValues: { decision: 'rejected' as const, reason: '' },
    labels: { reason: t('videos.reason') },
  });
  return (
    <article className="admin-card" data-testid={`video-${video.id}`}>
      <video className="admin-video" src={video.url} controls muted preload="metadata" playsInline />
      <p>
        <button type="button" className="link-button" onClick={() => openAdminModal(video.user_id)}>
          {video.screen_name || video.username}
        </button>{' '}
        <span className="muted small">
          {t('videos.uploaded', { date: dateTime(video.created_at) })}
          {video.duration ? ` · ${Math.round(video.duration)} s` : ''}
        </span>
      </p>
      <div className="admin-decide">
        <button
          type="button"
          className="button button--primary"
          disabled={decide.isPending}
          onClick={() => void decide.mutateAsync({ id: video.id, decision: 'approved' }).catch(() => undefined)}
        >
          {t('videos.approve')}
        </button>
        <Form
          form={form}
          className="admin-inline-form"
          onSubmit={(body) => decide.mutateAsync({ id: video.id, ...body })}
        >
          <TextField form={form} name="reason" placeholder={t('videos.reasonPlaceholder')} />
          <SubmitButton form={form} className="admin__danger">
            {t('videos.reject')}
          </SubmitButton>
        </Form>
      </div>
    </article>
  );
}
