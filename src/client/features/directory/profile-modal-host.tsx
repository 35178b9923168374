// Mounted once by the shell. The modal's code (and the profile view with it) is downloaded the first
// time a profile opens, not with the shell.
import { lazy, Suspense, useState } from 'react';
import { useProfileModal } from './profile-modal-store';

const loadModal = () => import('./profile-modal');
const ProfileModal = lazy(() => loadModal().then((m) => ({ default: m.ProfileModal })));

/** Lists call this when they show: the first tap on a card then opens at once. */
export function preloadProfileModal(): void {
  void loadModal().catch(() => undefined);
}

export function ProfileModalHost() {
  const { id } = useProfileModal();
  const [needed, setNeeded] = useState(false);
  if (id !== null && !needed) setNeeded(true);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <ProfileModal />
    </Suspense>
  );
}
