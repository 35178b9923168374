// Mounted once by the shell. The admin modal's code (and the admin texts) load the first time an admin
// opens it; the flag event refresh is always on, so every open screen reacts to a flag.
import { lazy, Suspense, useState } from 'react';
import { useAdminModal } from './admin-modal-store';
import { useFlagEventRefresh } from './flag-events';
import { i18n } from '#client/lib/i18n.ts';

const AdminModal = lazy(async () => {
  const [m] = await Promise.all([import('./admin-modal'), i18n.loadNamespaces('admin')]);
  return { default: m.AdminModal };
});

export function AdminModalHost() {
  useFlagEventRefresh();
  const { userId } = useAdminModal();
  const [needed, setNeeded] = useState(false);
  if (userId !== null && !needed) setNeeded(true);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <AdminModal />
    </Suspense>
  );
}
