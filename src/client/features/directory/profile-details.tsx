// The profile as the SPA shows it (profile page and profile modal): the shared, server-renderable
// ProfileView plus what only a browser can do (bookmark, share, comments, report, gallery viewer,
// phone-reveal count). The server renders the same ProfileView without these.
import { lazy, Suspense, useCallback, useState, type MouseEvent, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Profile } from '#shared/schemas/directory.ts';
import { ProfileView, type LinkRenderer, type Translate } from '#shared/views/profile-view.tsx';
import { BookmarkButton } from '#client/components/bookmark-button.tsx';
import { ShareBar } from '#client/components/share-bar.tsx';
import { revealPhone } from './api';
import { profileShareUrl } from '#client/lib/share.ts';
import { Comments } from './comments';
import { ReportProfile } from './report-profile';

// The full-screen viewer (Radix Dialog) loads when a photo is first opened (decision 0708).
const GalleryViewer = lazy(() => import('#client/components/gallery.tsx').then((m) => ({ default: m.GalleryViewer })));

const routerLink: LinkRenderer = ({ href, className, children, ...rest }) => (
  <Link to={href} className={className} aria-label={rest['aria-label']}>
    {children}
  </Link>
);

export function ProfileDetails({
  profile,
  galleryReady = true,
  videoRef,
}: {
  profile: Profile;
  /** Thumbnails open the viewer only once the gallery is started (the modal waits 150 ms). */
  galleryReady?: boolean;
  videoRef?: Ref<HTMLVideoElement>;
}) {
  const { t, i18n } = useTranslation('directory');
  const translate = useCallback<Translate>((key, options) => t(key, options ?? {}), [t]);
  const [viewer, setViewer] = useState<number | null>(null);
  const [galleryWanted, setGalleryWanted] = useState(false);
  if (viewer !== null && !galleryWanted) setGalleryWanted(true);
  const id = profile.user_id;

  const onPhotoClick = (index: number, event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    setViewer(index);
  };

  return (
    <>
      <ProfileView
        profile={profile}
        t={translate}
        lang={i18n.language}
        renderLink={routerLink}
        onPhoneClick={() => revealPhone(id)}
        onPhotoClick={galleryReady ? onPhotoClick : undefined}
        galleryReady={galleryReady}
        videoRef={videoRef}
        actions={<BookmarkButton id={id} />}
      >
        <section className="profile__section" aria-labelledby={`profile-${id}-share`}>
          <div className="profile__section-head">
            <h2 id={`profile-${id}-share`}>{t('share.heading')}</h2>
          </div>
          <ShareBar url={profileShareUrl(id)} title={profile.title || profile.screen_name} />
        </section>
        <Comments profile={profile} />
        <ReportProfile profile={profile} />
      </ProfileView>
      {/* Destroyed with the gallery: nothing of it stays once the gallery stops. */}
      {galleryReady && galleryWanted && (
        <Suspense fallback={null}>
          <GalleryViewer
            photos={profile.gallery}
            index={viewer}
            name={profile.screen_name}
            onIndex={setViewer}
            onClose={() => setViewer(null)}
          />
        </Suspense>
      )}
    </>
  );
}
