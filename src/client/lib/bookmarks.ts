// Bookmarks (spec sections 3-5): profile ids kept in this browser under localStorage "bookmarks",
// newest first. Adding asks "Bookmark?", removing asks "Remove from bookmarks?"; the list is
// filtered to non-zero numeric ids before every save. Other tabs follow through the storage event.
import { confirm } from './dialogs';
import { i18n } from './i18n';
import { createStore, useStore } from './store';

export const BOOKMARKS_KEY = 'bookmarks';

/** Spec section 5: non-zero numeric entries only (numeric strings count), each once, order kept. */
export function cleanBookmarkIds(values: unknown): number[] {
  if (!Array.isArray(values)) return [];
  const seen = new Set<number>();
  for (const value of values) {
    const id =
      typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
    if (Number.isFinite(id) && id !== 0 && Number.isInteger(id) && id > 0) seen.add(id);
  }
  return [...seen];
}

function read(): number[] {
  try {
    return cleanBookmarkIds(JSON.parse(window.localStorage.getItem(BOOKMARKS_KEY) ?? '[]'));
  } catch {
    return [];
  }
}

const store = createStore<number[]>(typeof window === 'undefined' ? [] : read());

if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key === BOOKMARKS_KEY || event.key === null) store.set(read());
  });
}

function save(ids: number[]): void {
  const clean = cleanBookmarkIds(ids);
  try {
    window.localStorage.setItem(BOOKMARKS_KEY, JSON.stringify(clean));
  } catch {
    // Private mode or a full storage: the bookmark still holds for this visit.
  }
  store.set(clean);
}

export const getBookmarks = () => store.get();
export const useBookmarks = () => useStore(store);
export const isBookmarked = (id: number) => store.get().includes(id);

/** Spec section 4: a new bookmark goes to the front of the list. */
export function addBookmark(id: number): void {
  save([id, ...store.get().filter((x) => x !== id)]);
}

export function removeBookmark(id: number): void {
  save(store.get().filter((x) => x !== id));
}

/**
 * Asks first, then adds or removes. Resolves with whether the id is bookmarked afterwards.
 */
export async function toggleBookmark(id: number): Promise<boolean> {
  const t = i18n.t.bind(i18n);
  if (isBookmarked(id)) {
    const yes = await confirm({
      title: t('directory:bookmark.removeTitle'),
      confirm: t('directory:bookmark.removeConfirm'),
      cancel: t('common:dialog.cancel'),
    });
    if (yes) removeBookmark(id);
    return !yes;
  }
  const yes = await confirm({
    title: t('directory:bookmark.addTitle'),
    confirm: t('directory:bookmark.addConfirm'),
    cancel: t('common:dialog.cancel'),
  });
  if (yes) addBookmark(id);
  return yes;
}
