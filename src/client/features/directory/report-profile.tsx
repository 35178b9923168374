// The report button under a profile. The dialog with its form (and Radix Dialog) loads when it is
// first pressed, not with the profile (issue 14, decision 0708).
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Profile } from '#shared/schemas/directory.ts';

const ReportDialog = lazy(() => import('./report-form').then((m) => ({ default: m.ReportDialog })));

export function ReportProfile({ profile }: { profile: Profile }) {
  const { t } = useTranslation('directory');
  const [open, setOpen] = useState(false);
  return (
    <div className="report">
      <button
        type="button"
        className="button button--ghost report__open"
        onClick={() => setOpen(true)}
        data-testid="report-open"
      >
        <span aria-hidden="true">⚑</span> {t('report.open')}
      </button>
      {open && (
        <Suspense fallback={null}>
          <ReportDialog profile={profile} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </div>
  );
}
