// Mounted once by the shell. The modal's code (and the profile view with it) is downloaded the first
// time a profile opens, not with the shell.
import { lazy, Suspense, useState } from 'react';
import { useProfileModal } from './profile-modal-store';

const loadModal = () => import('./profile-modal');
const ProfileModal = lazy(() => loadModal().then((m) => ({ default: m.ProfileModal })));

let preloaded = false;

/**
 * Lists call this when a pointer or the focus reaches a card (docs/decisions/0709): the modal's code
 * downloads while the finger is still down, not with the first screen.
 */
export function preloadProfileModal(): void {
  if (preloaded) return;
  preloaded = true;
  void loadModal().catch(() => {
    preloaded = false;
  });
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
