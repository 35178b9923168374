import type { ReactNode } from 'react';

/** The narrow card every auth screen sits in: one column on a phone, centred on a desktop. */
export function AuthCard({
  title,
  lead,
  children,
  testId,
}: {
  title: ReactNode;
  lead?: ReactNode;
  children: ReactNode;
  testId?: string;
}) {
  return (
    <section className="auth" data-testid={testId}>
      <div className="auth__card">
        <h1 className="auth__title">{title}</h1>
        {lead && <p className="auth__lead">{lead}</p>}
        {children}
      </div>
    </section>
  );
}

export type StatusTone = 'success' | 'error' | 'info' | 'pending';

const GLYPHS: Record<Exclude<StatusTone, 'pending'>, string> = { success: '✓', error: '!', info: 'i' };

/** A result line with an icon (verification done, link expired...). */
export function AuthStatus({ tone, children }: { tone: StatusTone; children: ReactNode }) {
  return (
    <div className={`auth-status auth-status--${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      {tone === 'pending' ? (
        <span className="spinner spinner--small" aria-hidden="true" />
      ) : (
        <span className="auth-status__icon" aria-hidden="true">
          {GLYPHS[tone]}
        </span>
      )}
      <div className="auth-status__text">{children}</div>
    </div>
  );
}
