import { useTranslation } from 'react-i18next';
import { useLoading } from '#client/lib/loading.ts';

/** A spinner that covers the view (spec section 1). */
export function Spinner({ label }: { label?: string }) {
  const { t } = useTranslation();
  return (
    <div className="spinner-cover" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span className="visually-hidden">{label ?? t('loading')}</span>
    </div>
  );
}

/** The spinner of the global loading indicator, shown while any call with `loading: true` runs. */
export function LoadingOverlay() {
  const on = useLoading();
  return on ? <Spinner /> : null;
}

/** Inline spinner for parts of a screen (the next page of a list). */
export function InlineSpinner({ label }: { label: string }) {
  return (
    <span className="inline-spinner" role="status">
      <span className="spinner spinner--small" aria-hidden="true" />
      <span>{label}</span>
    </span>
  );
}
