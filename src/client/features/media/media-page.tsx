// /edit/media/{id}: avatar (the Attention rules before every upload, Topup Required above position
// 100), profile portrait, the gallery at a glance, the video with its conversion progress and approval
// state, and "Delete all media?".
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { IMAGE_TYPES, VIDEO_ACCEPT, type MediaItem, type MediaState } from '#shared/schemas/media.ts';
import { PICTURE_SIZES, PictureImage } from '#shared/views/picture.tsx';
import { ApiError } from '#client/lib/api.ts';
import { confirm, notify } from '#client/lib/dialogs.ts';
import {
  useDeleteAllMedia,
  useDeleteMedia,
  useDeleteVideo,
  useMediaState,
  usePhotoUpload,
  useVideoProgress,
  useVideoUpload,
} from './api';
import { AvatarCropDialog } from './avatar-crop';
import { confirmAvatarRules, showTopupRequired, topupMessage } from './avatar-rules';
import { MediaFrame, QueryState, useMediaTarget } from './media-screen';
import { ProgressBar, UploadButton } from './upload-control';

const IMAGE_ACCEPT = IMAGE_TYPES.join(',');

export function MediaPage() {
  const { t } = useTranslation('media');
  const { id, self } = useMediaTarget();
  const query = useMediaState(id);
  return (
    <MediaFrame id={id} self={self} title={t('page.mediaTitle')} lead={t('page.mediaLead')} testId="media-page">
      {query.data ? (
        <>
          <p className="media__privacy small muted">{t('privacy')}</p>
          <div className="media__grid">
            <AvatarCard id={id} self={self} state={query.data} />
            <GallerySummary id={id} state={query.data} />
            <PortraitCard id={id} self={self} state={query.data} />
            <VideoCard id={id} state={query.data} />
            <DeleteAllCard id={id} state={query.data} />
          </div>
        </>
      ) : (
        <QueryState error={query.error} retry={() => void query.refetch()} />
      )}
    </MediaFrame>
  );
}

function Preview({ item, alt, empty }: { item: MediaItem | null; alt: string; empty: string }) {
  return (
    <div className="media-preview">
      {item?.picture ? (
        <PictureImage picture={item.picture} sizes={PICTURE_SIZES.edit} alt={alt} />
      ) : (
        <span className="media-preview__empty small muted">{empty}</span>
      )}
    </div>
  );
}

function PhotoCard({
  id,
  self,
  state,
  kind,
}: {
  id: number;
  self: boolean;
  state: MediaState;
  kind: 'avatar' | 'portrait';
}) {
  const { t } = useTranslation('media');
  const upload = usePhotoUpload(id, kind, self);
  const remove = useDeleteMedia(id);
  const item = state[kind];
  const isAvatar = kind === 'avatar';

  // DESIGN.md: the rules come before every avatar upload; above the position limit, the top-up first.
  const beforePick = isAvatar
    ? async () => {
        if (item && !state.avatar_change.allowed) {
          void showTopupRequired(topupMessage(state.avatar_change.position, state.avatar_change.max_position));
          return false;
        }
        return confirmAvatarRules();
      }
    : undefined;

  const send = useCallback(
    (file: File) =>
      upload.mutate(file, {
        onError: (error) => {
          if (isAvatar && error instanceof ApiError && error.status === 403) void showTopupRequired(error.message);
        },
      }),
    [upload, isAvatar],
  );
  // The avatar is shown at 3:4: she chooses that part of her photo before it goes up.
  const [cropping, setCropping] = useState<File | null>(null);
  const onCropped = useCallback(
    (file: File | null) => {
      setCropping(null);
      if (file) send(file);
    },
    [send],
  );
  const onFiles = ([file]: File[]) => (isAvatar ? setCropping(file) : send(file));

  const onDelete = async () => {
    if (!item) return;
    const ok = await confirm({ title: t(`${kind}.delete`), confirm: t('deleteConfirm'), cancel: t('cancel') });
    if (ok) remove.mutate(item.id);
  };

  return (
    <article className="media-card" data-testid={`media-${kind}`}>
      <h2 className="media-card__title">{t(`${kind}.title`)}</h2>
      <p className="small muted">{t(`${kind}.hint`)}</p>
      <Preview item={item} alt={t(`${kind}.alt`)} empty={t(`${kind}.none`)} />
      <div className="media-card__actions">
        <UploadButton
          label={item ? t(`${kind}.change`) : t(`${kind}.upload`)}
          accept={IMAGE_ACCEPT}
          onFiles={onFiles}
          progress={upload.progress}
          beforePick={beforePick}
          primary={!item}
          testId={`${kind}-upload`}
        />
        {item && (
          <button
            type="button"
            className="button button--ghost"
            onClick={() => void onDelete()}
            disabled={remove.isPending}
          >
            {t(`${kind}.delete`)}
          </button>
        )}
      </div>
      <p className="small muted">
        {t('upload.limits', { mb: state.limits.photo_mb, megapixels: state.limits.photo_megapixels })}
      </p>
      {cropping && <AvatarCropDialog file={cropping} onDone={onCropped} />}
    </article>
  );
}

export const AvatarCard = (p: { id: number; self: boolean; state: MediaState }) => <PhotoCard {...p} kind="avatar" />;
const PortraitCard = (p: { id: number; self: boolean; state: MediaState }) => <PhotoCard {...p} kind="portrait" />;

function GallerySummary({ id, state }: { id: number; state: MediaState }) {
  const { t } = useTranslation('media');
  return (
    <article className="media-card" data-testid="media-gallery-summary">
      <h2 className="media-card__title">{t('gallery.title')}</h2>
      <p className="small muted">{t('gallery.count', { count: state.gallery.length, max: state.gallery_max })}</p>
      {state.gallery.length > 0 && (
        <ul className="media-thumbs">
          {state.gallery.slice(0, 6).map((photo, i) =>
            photo.picture ? (
              <li key={photo.id}>
                <PictureImage picture={photo.picture} sizes="80px" alt={t('gallery.photoAlt', { n: i + 1 })} />
              </li>
            ) : null,
          )}
        </ul>
      )}
      <Link className="button button--primary" to={`/edit/gallery/${id}`} data-testid="media-manage-gallery">
        {t('gallery.manage')}
      </Link>
    </article>
  );
}

function VideoCard({ id, state }: { id: number; state: MediaState }) {
  const { t } = useTranslation('media');
  const upload = useVideoUpload(id);
  const remove = useDeleteVideo(id);
  const progress = useVideoProgress(id, state.video);
  const video = progress.data && progress.data.id === state.video?.id ? progress.data : state.video;

  const onDelete = async () => {
    const ok = await confirm({ title: t('video.confirmDelete'), confirm: t('deleteConfirm'), cancel: t('cancel') });
    if (ok) remove.mutate(undefined);
  };

  return (
    <article className="media-card" data-testid="media-video" data-status={video?.status ?? 'none'}>
      <h2 className="media-card__title">{t('video.title')}</h2>
      <p className="small muted">
        {t('video.hint', { seconds: state.limits.video_seconds, mb: state.limits.video_mb })}
      </p>
      {video?.status === 'processing' &&
        (video.progress > 0 ? (
          <ProgressBar
            value={video.progress / 100}
            label={t('video.processing', { percent: video.progress })}
            testId="video-processing"
          />
        ) : (
          <p className="small" data-testid="video-processing">
            {t('video.queued')}
          </p>
        ))}
      {video && video.status !== 'processing' && (
        <p className={`media-status media-status--${video.status}`} data-testid="video-status">
          {t(`video.${video.status}`)}
        </p>
      )}
      {video?.url && (
        <video
          className="media-video"
          src={video.url}
          poster={video.poster?.src}
          controls
          muted
          playsInline
          preload="metadata"
          data-testid="video-preview"
        />
      )}
      <div className="media-card__actions">
        <UploadButton
          label={video ? t('video.replace') : t('video.upload')}
          accept={VIDEO_ACCEPT}
          onFiles={([file]) => upload.mutate(file)}
          progress={upload.progress}
          primary={!video}
          testId="video-upload"
        />
        {video && (
          <button
            type="button"
            className="button button--ghost"
            onClick={() => void onDelete()}
            disabled={remove.isPending}
          >
            {t('video.delete')}
          </button>
        )}
      </div>
    </article>
  );
}

function DeleteAllCard({ id, state }: { id: number; state: MediaState }) {
  const { t } = useTranslation('media');
  const removeAll = useDeleteAllMedia(id);
  const empty = !state.avatar && !state.portrait && !state.video && state.gallery.length === 0;
  const onClick = async () => {
    const ok = await confirm({
      title: t('deleteAll.title'),
      message: t('deleteAll.message'),
      confirm: t('deleteAll.confirm'),
      cancel: t('cancel'),
    });
    if (!ok) return;
    removeAll.mutate(undefined, {
      onSuccess: () => void notify({ message: t('deleteAll.done'), icon: 'success', ok: t('common:dialog.ok') }),
    });
  };
  return (
    <article className="media-card media-card--danger">
      <h2 className="media-card__title">{t('deleteAll.button')}</h2>
      <p className="small muted">{t('deleteAll.hint')}</p>
      <button
        type="button"
        className="button media-button--danger"
        onClick={() => void onClick()}
        disabled={empty || removeAll.isPending}
        data-testid="media-delete-all"
      >
        {t('deleteAll.button')}
      </button>
    </article>
  );
}
