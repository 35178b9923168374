// Entry of the lazy "admin" section: the Admin Panel (spec sections 2 and 6), built in features/admin.
// Only admins see it; the server refuses every admin call to anyone else as well (401 / 403).
import type { SectionProps } from '#client/lib/route-paths.ts';
import { ComingSoon } from '#client/components/coming-soon.tsx';
import { AdminGate } from '#client/features/admin/admin-gate.tsx';
import { AuditPage } from '#client/features/admin/pages/audit-page.tsx';
import { AutoTopupPage } from '#client/features/admin/pages/auto-topup-page.tsx';
import { DuplicatesPage } from '#client/features/admin/pages/duplicates-page.tsx';
import { MoneyPage } from '#client/features/admin/pages/money-page.tsx';
import { OverviewPage } from '#client/features/admin/pages/overview-page.tsx';
import { ReportsPage } from '#client/features/admin/pages/reports-page.tsx';
import { UsersPage } from '#client/features/admin/pages/users-page.tsx';
import { VerificationQueuePage } from '#client/features/admin/pages/verification-queue-page.tsx';
import { VideosPage } from '#client/features/admin/pages/videos-page.tsx';

const SCREENS: Record<string, () => React.JSX.Element> = {
  'admin-overview': OverviewPage,
  'admin-verify': VerificationQueuePage,
  'admin-videos': VideosPage,
  'admin-users': UsersPage,
  'admin-auto-topup': AutoTopupPage,
  'admin-reports': ReportsPage,
  'admin-duplicates': DuplicatesPage,
  'admin-audit': AuditPage,
  'admin-money': MoneyPage,
};

export function AdminSection({ route }: SectionProps) {
  const Screen = SCREENS[route];
  if (!Screen) return <ComingSoon route={route} />;
  return (
    <AdminGate>
      <Screen />
    </AdminGate>
  );
}
