import { Component, useEffect, type ErrorInfo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ChunkLoadError } from '#client/lib/lazy-with-retry.ts';
import { notify } from '#client/lib/dialogs.ts';

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
  const chunk = error instanceof ChunkLoadError ? error : null;
  useEffect(() => {
    if (!chunk) return;
    // Spec section 8: "Loading chunk {n} failed" with the failure type and address, in a dialog that can retry.
    void notify({
      title: t('errors.chunkTitle'),
      message: t('errors.chunkFailed', {
        chunk: chunk.chunk,
        type: t(`errors.chunkType.${chunk.type}`),
        url: chunk.url,
      }),
      icon: 'error',
      ok: t('errors.retry'),
      cancel: t('dialog.close'),
      reload: true,
    });
  }, [chunk, t]);
  return (
    <section className="container container--narrow" role="alert" data-testid="section-error">
      <h1>{t('errors.sectionTitle')}</h1>
      <p className="lead">{t('errors.sectionMessage')}</p>
      <button type="button" className="button button--primary" onClick={() => window.location.reload()}>
        {t('errors.reload')}
      </button>
    </section>
  );
}
