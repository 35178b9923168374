// Share bar of spec section 2. Each network is a real link (middle click, no popup blocker trouble)
// that a plain click opens in a centred 500 x 500 popup instead. The Tumblr counter asks Tumblr only
// once the bar is on screen: a visitor who never scrolls to it sends nothing to a third party. On a
// phone the system's own share sheet (navigator.share) comes first: it reaches every app the visitor
// has, the spec's networks stay beside it for those it does not list.
import { useEffect, useRef, useState, useSyncExternalStore, type MouseEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '#client/lib/dialogs.ts';
import {
  compactCount,
  copyText,
  openSharePopup,
  SHARE_NETWORKS,
  shareUrl,
  tumblrNoteCount,
  type ShareNetwork,
} from '#client/lib/share.ts';

type IconName = ShareNetwork | 'copy' | 'native';

/** Phones (narrow or touch) with a share sheet; a desktop keeps the spec's bar alone. */
const NATIVE_SHARE_MEDIA = '(max-width: 767px), (pointer: coarse)';

function nativeShareAvailable(): boolean {
  return (
    typeof navigator !== 'undefined' &&
    typeof navigator.share === 'function' &&
    typeof window.matchMedia === 'function' &&
    window.matchMedia(NATIVE_SHARE_MEDIA).matches
  );
}

function watchNativeShare(changed: () => void): () => void {
  if (typeof window.matchMedia !== 'function') return () => undefined;
  const media = window.matchMedia(NATIVE_SHARE_MEDIA);
  media.addEventListener('change', changed);
  return () => media.removeEventListener('change', changed);
}

const ICONS: Record<IconName, ReactNode> = {
  // The X logo (simple-icons, CC0): a plain cross read as "close" on phones.
  x: (
    <path
      d="M18.9 1.15h3.68l-8.04 9.19L24 22.85h-7.41l-5.8-7.58-6.64 7.58H.47l8.6-9.83L0 1.15h7.59l5.25 6.93zm-1.29 19.5h2.04L6.49 3.24H4.3z"
      stroke="none"
    />
  ),
  whatsapp: (
    <>
      <path d="M5 19l1.2-3.6A7.5 7.5 0 1 1 9 18.3z" fill="none" strokeWidth="2" strokeLinejoin="round" />
      <path d="M9.5 9.5c.5 2 2 3.5 4 4" fill="none" strokeWidth="2" strokeLinecap="round" />
    </>
  ),
  telegram: <path d="M3 11.5L20 5l-3 14-5-4-3 3v-4.5L17 7" fill="none" strokeWidth="2" strokeLinejoin="round" />,
  tumblr: <path d="M10 4v4H7v3h3v5c0 2.5 1.5 4 4 4h3v-3h-2.5c-1 0-1.5-.5-1.5-1.5V11h4V8h-4V4z" strokeWidth="1" />,
  email: (
    <>
      <rect x="3" y="6" width="18" height="12" rx="2" fill="none" strokeWidth="2" />
      <path d="M3.5 7l8.5 6 8.5-6" fill="none" strokeWidth="2" />
    </>
  ),
  native: (
    <>
      <path
        d="M12 3v12M7.5 7.5L12 3l4.5 4.5"
        fill="none"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      <path d="M6 11H5v9h14v-9h-1" fill="none" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
    </>
  ),
  copy: (
    <>
      <path d="M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1" fill="none" strokeWidth="2" strokeLinecap="round" />
      <path d="M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1" fill="none" strokeWidth="2" strokeLinecap="round" />
    </>
  ),
};

function Icon({ name }: { name: IconName }) {
  return (
    <svg
      className="share__icon"
      viewBox="0 0 24 24"
      width="20"
      height="20"
      aria-hidden="true"
      focusable="false"
      stroke="currentColor"
      fill="currentColor"
    >
      {ICONS[name]}
    </svg>
  );
}

export function ShareBar({ url, title }: { url: string; title: string }) {
  const { t } = useTranslation('directory');
  const bar = useRef<HTMLDivElement>(null);
  const [count, setCount] = useState<{ url: string; value: number } | null>(null);
  // Known only in the browser: the server's first HTML has no share sheet to offer.
  const native = useSyncExternalStore(watchNativeShare, nativeShareAvailable, () => false);

  useEffect(() => {
    const element = bar.current;
    if (!element || typeof IntersectionObserver === 'undefined') return;
    let alive = true;
    const io = new IntersectionObserver((entries) => {
      if (!entries.some((e) => e.isIntersecting)) return;
      io.disconnect();
      void tumblrNoteCount(url).then((value) => {
        if (alive && value !== null) setCount({ url, value });
      });
    });
    io.observe(element);
    return () => {
      alive = false;
      io.disconnect();
    };
  }, [url]);

  const open = (network: ShareNetwork) => (event: MouseEvent<HTMLAnchorElement>) => {
    if (network === 'email') return; // mailto: hands over to the mail program; a popup would stay blank
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    // Blocked popup: let the link open in a new tab instead.
    if (openSharePopup(event.currentTarget.href)) event.preventDefault();
  };

  const copy = async () => {
    const ok = await copyText(url);
    void notify({
      title: ok ? t('share.copiedTitle') : t('share.copyFailedTitle'),
      message: ok ? t('share.copied') : t('share.copyFailed'),
      icon: ok ? 'success' : 'error',
      ok: t('common:dialog.ok'),
    });
  };

  const shareNatively = async () => {
    try {
      await navigator.share({ title, url });
    } catch {
      // Dismissed by the visitor (AbortError) or refused: the bar beside it is still there.
    }
  };

  const shown = count && count.url === url && count.value > 0 ? count.value : null;

  return (
    <div className="share" ref={bar} role="group" aria-label={t('share.label')} data-testid="share-bar">
      <ul className="share__list">
        {native && (
          <li>
            <button
              type="button"
              className="share__button share__button--native"
              onClick={() => void shareNatively()}
              data-network="native"
            >
              <Icon name="native" />
              <span className="share__text">{t('share.native')}</span>
            </button>
          </li>
        )}
        {SHARE_NETWORKS.map((network) => (
          <li key={network}>
            <a
              className={`share__button share__button--${network}`}
              href={shareUrl(network, url, title)}
              target={network === 'email' ? undefined : '_blank'}
              rel="noopener noreferrer"
              onClick={open(network)}
              title={t(`share.on.${network}`)}
              aria-label={network === 'tumblr' ? undefined : t(`share.on.${network}`)}
              data-network={network}
            >
              <Icon name={network} />
              <span className="share__text">{t(`share.networks.${network}`)}</span>
              {network === 'tumblr' && shown !== null && (
                <span className="share__count" data-testid="tumblr-count" title={t('share.notes', { count: shown })}>
                  {compactCount(shown)}
                  <span className="visually-hidden"> {t('share.notes', { count: shown })}</span>
                </span>
              )}
            </a>
          </li>
        ))}
        <li>
          <button
            type="button"
            className="share__button share__button--copy"
            onClick={() => void copy()}
            data-network="copy"
          >
            <Icon name="copy" />
            <span className="share__text">{t('share.copy')}</span>
          </button>
        </li>
      </ul>
    </div>
  );
}
