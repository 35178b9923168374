// The share bar of spec section 2: X/Twitter, WhatsApp, Telegram, Tumblr, Email and Copy URL, popups
// of 500 x 500 centred on the window, and the Tumblr note counter (through our server: 0200, 0805).
import { SHARE_POPUP_SIZE } from '#shared/constants.ts';
import type { TumblrCount } from '#shared/schemas/share.ts';
import { api } from './api';

export type ShareNetwork = 'x' | 'whatsapp' | 'telegram' | 'tumblr' | 'email';

export const SHARE_NETWORKS: ShareNetwork[] = ['x', 'whatsapp', 'telegram', 'tumblr', 'email'];

export function shareUrl(network: ShareNetwork, url: string, title: string): string {
  const u = encodeURIComponent(url);
  const t = encodeURIComponent(title);
  switch (network) {
    case 'x':
      return `https://x.com/intent/tweet?url=${u}&text=${t}`;
    case 'whatsapp':
      return `https://api.whatsapp.com/send?text=${encodeURIComponent(`${title} ${url}`)}`;
    case 'telegram':
      return `https://t.me/share/url?url=${u}&text=${t}`;
    case 'tumblr':
      return `https://www.tumblr.com/widgets/share/tool?canonicalUrl=${u}&title=${t}&posttype=link`;
    case 'email':
      return `mailto:?subject=${t}&body=${encodeURIComponent(`${title}\n${url}`)}`;
  }
}

/** Spec section 2: /profile/{id} is the address used when sharing. */
export function profileShareUrl(id: number, origin = window.location.origin): string {
  return `${origin}/profile/${id}`;
}

/** window.open features of a popup of the given size centred on the current window. */
export function popupFeatures(
  size: { width: number; height: number } = SHARE_POPUP_SIZE,
  win: Pick<Window, 'screenX' | 'screenY' | 'outerWidth' | 'outerHeight'> = window,
): string {
  const left = Math.max(0, Math.round(win.screenX + (win.outerWidth - size.width) / 2));
  const top = Math.max(0, Math.round(win.screenY + (win.outerHeight - size.height) / 2));
  return `popup=yes,width=${size.width},height=${size.height},left=${left},top=${top}`;
}

/** Opens the popup; null when the browser blocked it (the caller then lets the link open a tab). */
export function openSharePopup(url: string): Window | null {
  const popup = window.open(url, 'share', popupFeatures());
  // The shared site must not be able to script this page (what "noopener" would do, but
  // noopener in the features makes window.open return null, hiding whether it was blocked).
  if (popup) popup.opener = null;
  return popup;
}

/** Copies text; false when neither the Clipboard API nor the old execCommand route works. */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Refused (no permission, not focused): try the old way.
  }
  try {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    const ok = document.execCommand('copy');
    area.remove();
    return ok;
  } catch {
    return false;
  }
}

const UNITS = ['', 'k', 'm', 'g'] as const;

/** Spec section 2: 999 -> "999", 1234 -> "1.2k", 15000 -> "15k", 2500000 -> "2.5m", 1e9 -> "1g". */
export function compactCount(n: number): string {
  if (!Number.isFinite(n) || n < 1000) return String(Math.max(0, Math.round(n || 0)));
  let unit = 0;
  let value = n;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  let rounded = value >= 100 ? Math.round(value) : Math.round(value * 10) / 10;
  // 999,950 rounds to "1000k": say "1m" instead.
  if (rounded >= 1000 && unit < UNITS.length - 1) {
    rounded = 1;
    unit += 1;
  }
  return `${String(rounded).replace(/\.0$/, '')}${UNITS[unit]}`;
}

const counts = new Map<string, Promise<number | null>>();

/**
 * Tumblr's note count for a URL, asked of our own server, which asks Tumblr (docs/decisions/0805): no
 * script from Tumblr runs here and no visitor's address reaches it. Null when it fails or Tumblr gave no
 * count: the counter then stays hidden. One request per URL and page load.
 */
export function tumblrNoteCount(url: string): Promise<number | null> {
  let pendingCount = counts.get(url);
  if (!pendingCount) {
    pendingCount = api<TumblrCount>('/share/tumblr', { query: { url }, handle: [422, 429], loading: false })
      .then((answer) => answer.count)
      .catch(() => null);
    counts.set(url, pendingCount);
  }
  return pendingCount;
}
