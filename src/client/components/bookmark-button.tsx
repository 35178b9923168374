import { useTranslation } from 'react-i18next';
import { toggleBookmark, useBookmarks } from '#client/lib/bookmarks.ts';

/** Bookmark or unbookmark a profile, after the confirm of spec section 4. */
export function BookmarkButton({ id, compact }: { id: number; compact?: boolean }) {
  const { t } = useTranslation('directory');
  const bookmarked = useBookmarks().includes(id);
  const label = bookmarked ? t('bookmark.bookmarked') : t('bookmark.add');
  return (
    <button
      type="button"
      className={`button bookmark-button${bookmarked ? ' bookmark-button--on' : ''}${compact ? ' bookmark-button--compact' : ''}`}
      aria-pressed={bookmarked}
      aria-label={compact ? (bookmarked ? t('bookmark.removeLabel') : t('bookmark.add')) : undefined}
      title={compact ? label : undefined}
      onClick={() => void toggleBookmark(id)}
      data-testid="bookmark-button"
    >
      <span aria-hidden="true" className="bookmark-button__icon">
        {bookmarked ? '★' : '☆'}
      </span>
      {!compact && <span>{label}</span>}
    </button>
  );
}
