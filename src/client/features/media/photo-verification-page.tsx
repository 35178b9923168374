// /edit/verify/{id}: the verification state (pending, verified with its date, declined with the spec's
// reason), the photo ID upload with progress, and what happens to the ID: private, admins only,
// deleted PHOTO_ID_RETENTION_DAYS after the decision. Without an avatar: "You must first upload an avatar."
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { IMAGE_TYPES } from '#shared/schemas/media.ts';
import type { VerificationState } from '#shared/schemas/verification.ts';
import { VerifiedBadge } from '#shared/views/verified-badge.tsx';
import { notify } from '#client/lib/dialogs.ts';
import { formatDate } from '#client/lib/format.ts';
import { usePhotoIdUpload, useVerification } from './api';
import { MediaFrame, QueryState, useMediaTarget } from './media-screen';
import { UploadButton } from './upload-control';

export function PhotoVerificationPage() {
  const { t } = useTranslation('media');
  const { id, self } = useMediaTarget();
  const query = useVerification(id);
  const state = query.data;
  return (
    <MediaFrame
      id={id}
      self={self}
      title={t('page.verifyTitle')}
      lead={state ? t('verify.lead', { hours: state.review_hours }) : undefined}
      testId="verify-page"
    >
      {state ? (
        <VerifyCard id={id} state={state} />
      ) : (
        <QueryState error={query.error} retry={() => void query.refetch()} />
      )}
    </MediaFrame>
  );
}

function VerifyCard({ id, state }: { id: number; state: VerificationState }) {
  const { t, i18n } = useTranslation('media');
  const upload = usePhotoIdUpload(id);
  const date = (iso: string | null) => (iso ? formatDate(iso, i18n.language) : '');
  const request = state.request;

  const beforePick = async () => {
    if (state.has_avatar) return true;
    void notify({
      title: t('page.verifyTitle'),
      message: t('verify.needAvatar'),
      icon: 'warning',
      ok: t('verify.toMedia'),
      cancel: t('cancel'),
      path: `/edit/media/${id}`,
    });
    return false;
  };

  const onFiles = ([file]: File[]) =>
    upload.mutate(file, {
      onSuccess: () => void notify({ message: t('verify.sent'), icon: 'success', ok: t('common:dialog.ok') }),
    });

  let status;
  switch (state.status) {
    case 'verified':
      status = (
        <p className="media-status media-status--approved" data-testid="verify-status">
          <VerifiedBadge label="" /> {t('verify.status.verified', { date: date(state.verified_at) })}
        </p>
      );
      break;
    case 'pending':
      status = (
        <p className="media-status media-status--pending" data-testid="verify-status">
          {t('verify.status.pending', { date: date(request?.created_at ?? null), hours: state.review_hours })}
        </p>
      );
      break;
    case 'declined':
      status = (
        <div className="media-status media-status--rejected" data-testid="verify-status">
          <p>{t('verify.status.declined', { date: date(request?.decided_at ?? null) })}</p>
          {request?.decline_reason && (
            <p>
              <strong>{t('verify.reasonLabel')}</strong> {t(`reasons.${request.decline_reason}`)}
            </p>
          )}
          <p>{t('verify.declinedNext')}</p>
        </div>
      );
      break;
    default:
      status = (
        <p className="media-status" data-testid="verify-status">
          {t('verify.status.none')}
        </p>
      );
  }

  return (
    <article className="media-card" data-testid="verify-card" data-status={state.status}>
      {status}
      {!state.has_avatar && (
        <p className="media__note" role="note" data-testid="verify-need-avatar">
          {t('verify.needAvatar')} <Link to={`/edit/media/${id}`}>{t('verify.toMedia')}</Link>
        </p>
      )}
      {state.status !== 'pending' && state.status !== 'verified' && (
        <UploadButton
          label={request ? t('verify.uploadAgain') : t('verify.upload')}
          accept={IMAGE_TYPES.join(',')}
          onFiles={onFiles}
          progress={upload.progress}
          beforePick={beforePick}
          primary
          testId="verify-upload"
        />
      )}
      <p className="small muted" data-testid="verify-privacy">
        {t('verify.privacy', { days: state.retention_days })}
      </p>
      {request?.photo_id_delete_after && (
        <p className="small muted">
          {request.photo_id_deleted
            ? t('verify.deleted')
            : t('verify.deleteOn', { date: date(request.photo_id_delete_after) })}
        </p>
      )}
    </article>
  );
}
