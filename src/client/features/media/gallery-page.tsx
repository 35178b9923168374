// /edit/gallery/{id}: up to GALLERY_MAX photos, added several at a time with a progress bar, deleted one
// by one, and dragged into order (@dnd-kit: pointer, touch and keyboard), saved by updateGalleryPos.
import {
  closestCenter,
  DndContext,
  KeyboardSensor,
  PointerSensor,
  TouchSensor,
  useSensor,
  useSensors,
  type DragEndEvent,
} from '@dnd-kit/core';
import {
  arrayMove,
  rectSortingStrategy,
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { useTranslation } from 'react-i18next';
import { IMAGE_TYPES, type MediaItem } from '#shared/schemas/media.ts';
import { PICTURE_SIZES, PictureImage } from '#shared/views/picture.tsx';
import { confirm } from '#client/lib/dialogs.ts';
import { useDeleteMedia, useGalleryOrder, useMediaState, usePhotoUpload } from './api';
import { MediaFrame, QueryState, useMediaTarget } from './media-screen';
import { UploadButton } from './upload-control';

export function GalleryPage() {
  const { t } = useTranslation('media');
  const { id, self } = useMediaTarget();
  const query = useMediaState(id);
  const upload = usePhotoUpload(id, 'gallery', self);
  const order = useGalleryOrder(id);
  const remove = useDeleteMedia(id);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 6 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: 150, tolerance: 8 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const state = query.data;

  // One after the other, stopping at the first refusal (its message is the validation dialog's).
  const onFiles = async (files: File[]) => {
    for (const file of files) {
      try {
        await upload.mutateAsync(file);
      } catch {
        return;
      }
    }
  };

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!state || !over || active.id === over.id) return;
    const ids = state.gallery.map((g) => g.id);
    const next = arrayMove(ids, ids.indexOf(Number(active.id)), ids.indexOf(Number(over.id)));
    order.mutate(next);
  };

  const onDelete = async (photo: MediaItem) => {
    const ok = await confirm({ title: t('gallery.confirmDelete'), confirm: t('deleteConfirm'), cancel: t('cancel') });
    if (ok) remove.mutate(photo.id);
  };

  const full = !!state && state.gallery.length >= state.gallery_max;
  return (
    <MediaFrame
      id={id}
      self={self}
      title={t('page.galleryTitle')}
      lead={t('page.galleryLead', { max: state?.gallery_max ?? 9 })}
      testId="gallery-page"
    >
      {state ? (
        <div className="media-card">
          <div className="media-gallery__bar">
            <p className="media-gallery__count" data-testid="gallery-count">
              {t('gallery.count', { count: state.gallery.length, max: state.gallery_max })}
            </p>
            <UploadButton
              label={t('gallery.add')}
              accept={IMAGE_TYPES.join(',')}
              multiple
              onFiles={(files) => void onFiles(files)}
              progress={upload.progress}
              disabled={full}
              primary
              testId="gallery-upload"
            />
          </div>
          {full && (
            <p className="media-status" data-testid="gallery-full">
              {t('gallery.full')}
            </p>
          )}
          <p className="small muted">
            {t('gallery.rules')}{' '}
            {t('upload.limits', { mb: state.limits.photo_mb, megapixels: state.limits.photo_megapixels })}
          </p>
          {state.gallery.length === 0 ? (
            <p className="muted">{t('gallery.empty', { max: state.gallery_max })}</p>
          ) : (
            <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
              <SortableContext items={state.gallery.map((g) => g.id)} strategy={rectSortingStrategy}>
                <ol className="media-gallery" data-testid="gallery-list">
                  {state.gallery.map((photo, index) => (
                    <SortablePhoto key={photo.id} photo={photo} n={index + 1} onDelete={() => void onDelete(photo)} />
                  ))}
                </ol>
              </SortableContext>
            </DndContext>
          )}
        </div>
      ) : (
        <QueryState error={query.error} retry={() => void query.refetch()} />
      )}
    </MediaFrame>
  );
}

function SortablePhoto({ photo, n, onDelete }: { photo: MediaItem; n: number; onDelete: () => void }) {
  const { t } = useTranslation('media');
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({ id: photo.id });
  return (
    <li
      ref={setNodeRef}
      className={`media-gallery__item${isDragging ? ' is-dragging' : ''}`}
      style={{ transform: CSS.Transform.toString(transform), transition }}
      data-testid="gallery-item"
      data-id={photo.id}
    >
      <button
        type="button"
        className="media-gallery__handle"
        aria-label={t('gallery.drag', { n })}
        data-testid="gallery-handle"
        {...attributes}
        {...listeners}
      >
        {photo.picture && (
          <PictureImage picture={photo.picture} sizes={PICTURE_SIZES.edit} alt={t('gallery.photoAlt', { n })} />
        )}
        <span className="media-gallery__n" aria-hidden="true">
          {n}
        </span>
      </button>
      <button
        type="button"
        className="media-gallery__delete"
        aria-label={t('gallery.delete', { n })}
        onClick={onDelete}
        data-testid="gallery-delete"
      >
        ×
      </button>
    </li>
  );
}
