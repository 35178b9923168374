import { useId, type ReactNode } from 'react';

/** One block of the account screen: a heading, what is set now, and the form that changes it. */
export function SettingsCard({
  title,
  badge,
  children,
  tone,
  wide,
  testId,
}: {
  title: ReactNode;
  badge?: ReactNode;
  children: ReactNode;
  tone?: 'danger';
  wide?: boolean;
  testId?: string;
}) {
  const id = useId();
  return (
    <section
      className={`settings-card${tone ? ` settings-card--${tone}` : ''}${wide ? ' settings-card--wide' : ''}`}
      aria-labelledby={id}
      data-testid={testId}
    >
      <div className="settings-card__head">
        <h2 id={id} className="settings-card__title">
          {title}
        </h2>
        {badge}
      </div>
      {children}
    </section>
  );
}

export function StatusBadge({ ok, children }: { ok: boolean; children: ReactNode }) {
  return <span className={`status-badge status-badge--${ok ? 'ok' : 'warn'}`}>{children}</span>;
}

/** "Current value" line above a form. */
export function Current({ label, children }: { label: ReactNode; children: ReactNode }) {
  return (
    <p className="settings-card__current">
      <span className="muted">{label}</span> <strong className="settings-card__value">{children}</strong>
    </p>
  );
}
