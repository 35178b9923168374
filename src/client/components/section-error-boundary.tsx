import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

interface Props {
  /** Changing it (the path) clears a shown error, so navigating away recovers. */
  resetKey: string;
  children: ReactNode;
}

/** Catches a section that failed to load even after lazyWithRetry's one reload. */
export class SectionErrorBoundary extends Component<Props, { error: Error | null }> {
  override state = { error: null as Error | null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override componentDidUpdate(previous: Props) {
    if (previous.resetKey !== this.props.resetKey && this.state.error) this.setState({ error: null });
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('Section failed', error, info.componentStack);
  }

  override render() {
    return this.state.error ? <SectionError error={this.state.error} /> : this.props.children;
  }
}

function SectionError({ error }: { error: Error }) {
  const { t } = useTranslation();
  return (
    <section className="container container--narrow" role="alert">
      <h1>{t('errors.sectionTitle')}</h1>
      <p className="lead">{t('errors.sectionMessage')}</p>
      <p className="muted small">{error.message}</p>
      <button type="button" className="button button--primary" onClick={() => window.location.reload()}>
        {t('errors.reload')}
      </button>
    </section>
  );
}
