// A small photo viewer for the profile gallery (PhotoSwipe is not a dependency here): one photo at a
// time over everything, previous/next by button, arrow key or swipe (left = next photo, the carousel
// convention), Escape or the close button to leave. It stops its key and touch events so the profile
// modal under it does not switch profiles at the same time.
import * as Dialog from '@radix-ui/react-dialog';
import { useRef, type KeyboardEvent, type TouchEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { DIALOG_Z_INDEX } from '#shared/constants.ts';
import { useReturnFocus } from '#client/lib/focus-return.ts';
import { swipeDirection } from '#client/lib/swipe.ts';

export interface GalleryPhoto {
  id: number;
  /** The largest JPEG of the photo. */
  url: string;
}

const SWIPE_MIN_PX = 50;

export function GalleryViewer({
  photos,
  index,
  name,
  onIndex,
  onClose,
}: {
  photos: GalleryPhoto[];
  /** The photo shown, or null when the viewer is closed. */
  index: number | null;
  name: string;
  onIndex: (index: number) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation('directory');
  const touch = useRef<{ x: number; y: number } | null>(null);
  const open = index !== null && photos.length > 0;
  const returnFocus = useReturnFocus(open);
  const current = open ? Math.min(Math.max(index, 0), photos.length - 1) : 0;
  const step = (by: number) => onIndex((current + by + photos.length) % photos.length);

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowRight' || event.key === 'ArrowLeft') {
      event.preventDefault();
      step(event.key === 'ArrowRight' ? 1 : -1);
    }
    event.stopPropagation();
  };
  const onTouchStart = (event: TouchEvent) => {
    event.stopPropagation();
    const p = event.touches[0];
    touch.current = p ? { x: p.clientX, y: p.clientY } : null;
  };
  const onTouchEnd = (event: TouchEvent) => {
    event.stopPropagation();
    const direction = swipeDirection(touch.current, event.changedTouches[0], SWIPE_MIN_PX);
    touch.current = null;
    // A swipe to the left brings the next photo.
    if (direction) step(-direction);
  };

  const photo = photos[current];
  return (
    <Dialog.Root open={open} onOpenChange={(next) => !next && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="gallery-viewer__overlay" style={{ zIndex: DIALOG_Z_INDEX }} />
        <Dialog.Content
          className="gallery-viewer"
          style={{ zIndex: DIALOG_Z_INDEX }}
          aria-describedby={undefined}
          onKeyDown={onKeyDown}
          onCloseAutoFocus={returnFocus}
          onTouchStart={onTouchStart}
          onTouchEnd={onTouchEnd}
          data-testid="gallery-viewer"
        >
          <Dialog.Title className="visually-hidden">{t('profile.photo', { n: current + 1, name })}</Dialog.Title>
          {photo && (
            <img className="gallery-viewer__image" src={photo.url} alt={t('profile.photo', { n: current + 1, name })} />
          )}
          <p className="gallery-viewer__counter" aria-live="polite">
            {t('gallery.counter', { n: current + 1, total: photos.length })}
          </p>
          {photos.length > 1 && (
            <>
              <button
                type="button"
                className="gallery-viewer__nav gallery-viewer__nav--prev"
                onClick={() => step(-1)}
                aria-label={t('gallery.previous')}
              >
                ‹
              </button>
              <button
                type="button"
                className="gallery-viewer__nav gallery-viewer__nav--next"
                onClick={() => step(1)}
                aria-label={t('gallery.next')}
              >
                ›
              </button>
            </>
          )}
          <Dialog.Close className="gallery-viewer__close" aria-label={t('gallery.close')}>
            ×
          </Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
