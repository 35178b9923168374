import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useParams } from 'react-router';
import { HANDLE_PARAM } from '#client/lib/route-paths.ts';
import { BackButton } from '#client/components/back-button.tsx';
import { useProfile, type ProfileRef } from './api';
import { useCurrentUser } from '#client/lib/app-data.ts';
import { useDocumentTitle } from '#client/lib/document-title.ts';
import { NOT_FOUND_PATH } from '#client/lib/navigation.ts';
import { ProfileDetails } from './profile-details';

// For admins only (decision 0506): its code loads once the client knows the user is one.
const AdminProfileControl = lazy(() =>
  import('./admin-profile-control').then((m) => ({ default: m.AdminProfileControl })),
);

function useProfileRef(byName: boolean): ProfileRef | null {
  const params = useParams();
  if (byName) {
    const handle = params[HANDLE_PARAM] ?? '';
    return handle.length > 1 ? { name: handle.slice(1) } : null;
  }
  const id = Number(params.id);
  return Number.isInteger(id) && id > 0 ? { id } : null;
}

/** /profile/{id} and /@{name} opened directly (a shared link, a reload, a search engine). */
export function ProfilePage({ byName }: { byName: boolean }) {
  const ref = useProfileRef(byName);
  if (!ref) return <Navigate to={NOT_FOUND_PATH} replace />;
  return <ProfileLoader profileRef={ref} />;
}

function ProfileLoader({ profileRef }: { profileRef: ProfileRef }) {
  const { t } = useTranslation('directory');
  const profile = useProfile(profileRef);
  const isAdmin = useCurrentUser().data?.role === 'admin';
  useDocumentTitle(profile.data ? profile.data.title || profile.data.screen_name : null);

  return (
    <div className="container profile-page" aria-busy={profile.isPending}>
      <BackButton label={t('profile.back')} />
      {isAdmin && profile.data && (
        <Suspense fallback={null}>
          <AdminProfileControl userId={profile.data.user_id} placement="page" />
        </Suspense>
      )}
      {profile.data ? (
        <ProfileDetails key={profile.data.user_id} profile={profile.data} />
      ) : profile.isError ? (
        <p className="empty">
          <button type="button" className="button" onClick={() => void profile.refetch()}>
            {t('common:errors.reload')}
          </button>
        </p>
      ) : (
        <div className="profile__skeleton" />
      )}
    </div>
  );
}
