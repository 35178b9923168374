// The profile modal of spec section 2. It opens over the current list when the open-profile event
// arrives (features/directory/profile-modal-store), clears, fetches and then shows the profile with
// its title as the modal title. The address bar shows /profile/{id} (a history entry of its own, so
// Back closes the modal) while the list underneath stays mounted: closing returns to it as it was,
// same scroll position, nothing reloaded. Swiping right asks for the next profile of the list (+),
// swiping left the previous one (-); the arrow keys and the ‹ › buttons do the same. The video
// starts 250 ms after the profile shows, the gallery viewer 150 ms; closing pauses the one and
// destroys the other.
import * as Dialog from '@radix-ui/react-dialog';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useEffect, useLayoutEffect, useRef, useState, type TouchEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { GALLERY_START_DELAY_MS, MODAL_Z_INDEX, VIDEO_AUTOPLAY_DELAY_MS } from '#shared/constants.ts';
import { BODY_ID_SUFFIX } from '#shared/routes.ts';
import type { Profile } from '#shared/schemas/directory.ts';
import { directoryKeys, fetchProfile } from './api';
import { closeProfile, neighbourOf, openProfile, profileModalStore, useProfileModal } from './profile-modal-store';
import { ApiError } from '#client/lib/api.ts';
import { useCurrentUser } from '#client/lib/app-data.ts';
import { useDocumentTitle } from '#client/lib/document-title.ts';
import { useReturnFocus } from '#client/lib/focus-return.ts';
import { ProfileDetails } from './profile-details';
import { InlineSpinner } from '#client/components/spinner.tsx';
import './directory.css';
import { swipeDirection } from '#client/lib/swipe.ts';

/** Marks the history entry the modal pushed. */
export const MODAL_HISTORY_KEY = 'profileModal';
const SWIPE_MIN_PX = 60;
const PROFILE_BODY_ID = `profile${BODY_ID_SUFFIX}`;

// For admins only (decision 0506): its code loads once the client knows the user is one.
const AdminProfileControl = lazy(() =>
  import('./admin-profile-control').then((m) => ({ default: m.AdminProfileControl })),
);

type HistoryState = Record<string, unknown> | null;
const historyState = () => window.history.state as HistoryState;

interface Shown {
  id: number;
  profile: Profile | null;
  error: 'gone' | 'failed' | null;
}

export function ProfileModal() {
  const { t } = useTranslation('directory');
  const { id, context } = useProfileModal();
  const open = id !== null;
  const queryClient = useQueryClient();
  const location = useLocation();
  const isAdmin = useCurrentUser().data?.role === 'admin';
  const [shown, setShown] = useState<Shown | null>(null);
  const returnFocus = useReturnFocus(open);
  const [galleryReady, setGalleryReady] = useState(false);
  const videoRef = useRef<HTMLVideoElement>(null);
  const contentRef = useRef<HTMLDivElement>(null);
  const bodyRef = useRef<HTMLDivElement>(null);
  const touch = useRef<{ x: number; y: number } | null>(null);
  const pushed = useRef(false);
  const openedAtKey = useRef<string | null>(null);
  const locationKey = useRef(location.key);
  locationKey.current = location.key;

  const profile = shown && shown.id === id ? shown.profile : null;

  // Clear, fetch, show.
  useEffect(() => {
    if (id === null) return;
    let alive = true;
    setShown({ id, profile: null, error: null });
    bodyRef.current?.scrollTo?.(0, 0);
    queryClient
      .fetchQuery({
        queryKey: directoryKeys.profile({ id }),
        // A profile gone meanwhile is said inside the modal: the list underneath stays.
        queryFn: ({ signal }) => fetchProfile({ id }, signal, { handle: [404], loading: false }),
      })
      .then(
        (data) => alive && setShown({ id, profile: data, error: null }),
        (error: unknown) =>
          alive &&
          setShown({ id, profile: null, error: error instanceof ApiError && error.status === 404 ? 'gone' : 'failed' }),
      );
    return () => {
      alive = false;
    };
  }, [id, queryClient]);

  // The address: one history entry for the modal, replaced as the visitor swipes through the list.
  useEffect(() => {
    if (id === null) return;
    const url = `/profile/${id}`;
    const state = historyState() ?? {};
    if (!pushed.current) {
      openedAtKey.current = locationKey.current;
      const idx = typeof state.idx === 'number' ? state.idx + 1 : 1;
      // The router keeps its own key and index in history.state; a fresh key and the next index keep
      // its bookkeeping right if the visitor later follows a link from here.
      window.history.pushState(
        { ...state, key: Math.random().toString(36).slice(2, 10), idx, [MODAL_HISTORY_KEY]: id },
        '',
        url,
      );
      pushed.current = true;
    } else if (window.location.pathname !== url) {
      window.history.replaceState({ ...state, [MODAL_HISTORY_KEY]: id }, '', url);
    }
  }, [id]);

  // Back (or a swipe-back gesture) closes the modal; the router pops to the list by itself.
  useEffect(() => {
    if (!open) return;
    const onPop = () => {
      if (historyState()?.[MODAL_HISTORY_KEY] !== undefined) return;
      pushed.current = false;
      videoRef.current?.pause();
      closeProfile();
    };
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, [open]);

  // A link followed from inside the modal leaves it; its history entry stays (Back shows the page).
  useEffect(() => {
    if (open && openedAtKey.current !== null && location.key !== openedAtKey.current) {
      pushed.current = false;
      closeProfile();
    }
  }, [location.key, open]);

  const close = useCallback(() => {
    videoRef.current?.pause();
    setGalleryReady(false);
    closeProfile();
    if (pushed.current) {
      pushed.current = false;
      if (historyState()?.[MODAL_HISTORY_KEY] !== undefined) window.history.back();
    }
  }, []);

  // Video after 250 ms, gallery after 150 ms, counted from the commit that put the profile on the
  // page (a layout effect: a passive one would add a frame); leaving this profile pauses and
  // destroys them.
  useLayoutEffect(() => {
    if (!profile) return;
    const video = videoRef.current;
    const videoTimer = setTimeout(() => {
      if (!video) return;
      video.muted = true; // browsers only autoplay muted video
      void video.play()?.catch(() => undefined);
    }, VIDEO_AUTOPLAY_DELAY_MS);
    const galleryTimer = setTimeout(() => setGalleryReady(true), GALLERY_START_DELAY_MS);
    return () => {
      clearTimeout(videoTimer);
      clearTimeout(galleryTimer);
      video?.pause();
      setGalleryReady(false);
    };
  }, [profile]);

  useDocumentTitle(open && profile ? profile.title || profile.screen_name : null);

  // The page shown is a profile: the body says so (spec section 1) until the modal closes.
  useEffect(() => {
    if (!open) return;
    const previous = document.body.id;
    document.body.id = PROFILE_BODY_ID;
    return () => {
      if (document.body.id === PROFILE_BODY_ID) document.body.id = previous;
    };
  }, [open]);

  const go = useCallback(
    async (direction: 1 | -1) => {
      if (id === null) return;
      const next = await neighbourOf(id, direction, context);
      // Only if the visitor is still on the same profile (no close or other swipe meanwhile).
      if (next !== null && profileModalStore.get().id === id) openProfile(next, context);
    },
    [id, context],
  );

  // Arrow keys step through the list. Listened to on the document: after a confirm (bookmark) closes,
  // focus is on the body, not in the modal. Keys meant for another dialog on top (the confirm, the
  // gallery viewer) or for a text field are left alone.
  const goRef = useRef(go);
  goRef.current = go;
  useEffect(() => {
    if (!open) return;
    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      if (event.defaultPrevented || (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft')) return;
      const target = event.target instanceof Element ? event.target : null;
      const inModal = !!target && !!contentRef.current?.contains(target);
      const onBody = !target || target === document.body || target === document.documentElement;
      if (!inModal && !onBody) return;
      if (target?.closest('input, textarea, select, [contenteditable="true"]')) return;
      event.preventDefault();
      void goRef.current(event.key === 'ArrowRight' ? 1 : -1);
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [open]);

  const onTouchStart = (event: TouchEvent) => {
    const p = event.touches[0];
    touch.current = event.touches.length === 1 && p ? { x: p.clientX, y: p.clientY } : null;
  };
  const onTouchEnd = (event: TouchEvent) => {
    const direction = swipeDirection(touch.current, event.changedTouches[0], SWIPE_MIN_PX);
    touch.current = null;
    // Spec section 2: swiping right requests the next profile (+), left the previous (-).
    if (direction) void go(direction);
  };

  const title = profile
    ? profile.title || profile.screen_name
    : shown?.error === 'gone'
      ? t('modal.goneTitle')
      : t('modal.loading');

  return (
    <Dialog.Root open={open} onOpenChange={(next) => !next && close()}>
      <Dialog.Portal>
        <Dialog.Overlay className="overlay" style={{ zIndex: MODAL_Z_INDEX }} />
        <Dialog.Content
          ref={contentRef}
          className="dialog profile-modal"
          style={{ zIndex: MODAL_Z_INDEX }}
          aria-describedby={undefined}
          onOpenAutoFocus={(event) => {
            // Start reading at the top of the profile, not on the close button.
            event.preventDefault();
            contentRef.current?.focus();
          }}
          onCloseAutoFocus={returnFocus}
          onTouchStart={onTouchStart}
          onTouchEnd={onTouchEnd}
          data-testid="profile-modal"
          data-profile-id={profile?.user_id}
        >
          <div className="dialog__header profile-modal__header">
            <Dialog.Title className="dialog__title profile-modal__title">{title}</Dialog.Title>
            {/* The id is known before the profile arrives, and a profile gone from the directory may
                be exactly the one an admin wants to look at. */}
            {isAdmin && id !== null && (
              <Suspense fallback={null}>
                <AdminProfileControl userId={id} placement="modal" />
              </Suspense>
            )}
            {context && (
              <div className="profile-modal__nav">
                <button
                  type="button"
                  className="profile-modal__step"
                  onClick={() => void go(-1)}
                  aria-label={t('modal.previous')}
                >
                  <span aria-hidden="true">‹</span>
                </button>
                <button
                  type="button"
                  className="profile-modal__step"
                  onClick={() => void go(1)}
                  aria-label={t('modal.next')}
                >
                  <span aria-hidden="true">›</span>
                </button>
              </div>
            )}
            <Dialog.Close className="dialog__close" aria-label={t('common:dialog.close')}>
              <span aria-hidden="true">×</span>
            </Dialog.Close>
          </div>
          <div className="profile-modal__body" ref={bodyRef}>
            {profile ? (
              <ProfileDetails key={profile.user_id} profile={profile} galleryReady={galleryReady} videoRef={videoRef} />
            ) : shown?.error ? (
              <p className="empty profile-modal__error">
                {shown.error === 'gone' ? t('modal.gone') : t('modal.failed')}
              </p>
            ) : (
              <div className="profile-modal__loading">
                <InlineSpinner label={t('modal.loading')} />
              </div>
            )}
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
