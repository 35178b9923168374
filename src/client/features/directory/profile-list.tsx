import { hashKey, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { preloadProfileModal } from './profile-modal-host';
import { InlineSpinner } from '#client/components/spinner.tsx';
import { useProfilePages, type DirectoryPage, type ProfileListSource } from './api';
import { openProfile, type ProfileListContext } from './profile-modal-store';
import { ProfileCard } from './profile-card';
import { useInfiniteTrigger } from './use-infinite-trigger';

export function ProfileList({
  source,
  emptyText,
  empty,
  onFirstPage,
}: {
  source: ProfileListSource;
  emptyText: string;
  /** Shown instead of emptyText when the list is empty (a filtered list offers to widen its filter). */
  empty?: ReactNode;
  onFirstPage?: (page: DirectoryPage) => void;
}) {
  const { t } = useTranslation('directory');
  const queryClient = useQueryClient();
  const key = hashKey(source.queryKey);
  // Which list has been started (page 1 requested). A list with cached pages counts as started:
  // coming back to a listing continues where it was instead of starting over.
  const [startedKey, setStartedKey] = useState<string | null>(null);
  const started = startedKey === key || queryClient.getQueryData(source.queryKey) !== undefined;
  const list = useProfilePages(source, started);
  const first = list.data?.pages[0];
  useEffect(() => {
    if (first) onFirstPage?.(first);
  }, [first, onFirstPage]);

  const onSight = () => {
    // After a failed page only the button retries: sightings would repeat the error dialog.
    if (list.isError) return;
    if (!started) setStartedKey(key);
    else if (list.hasNextPage && !list.isFetchingNextPage) void list.fetchNextPage();
  };
  const trigger = useInfiniteTrigger<HTMLDivElement>(onSight, { resetKey: key, busy: list.isFetching });

  const items = list.data?.pages.flatMap((page) => page.data) ?? [];
  const done = list.isSuccess && !list.hasNextPage;

  // What the profile modal needs to step through this list: the ids loaded so far, and more.
  const latest = useRef(list);
  latest.current = list;
  const openItem = (id: number) => {
    const context: ProfileListContext = {
      ids: () => (latest.current.data?.pages ?? []).flatMap((page) => page.data.map((item) => item.id)),
      loadMore: async () => {
        if (!latest.current.hasNextPage) return null;
        const result = await latest.current.fetchNextPage();
        return (result.data?.pages ?? []).flatMap((page) => page.data.map((item) => item.id));
      },
    };
    openProfile(id, context);
  };

  return (
    <div className="profile-list">
      {/* The cards' names are h3: this h2 keeps the outline one level at a time under the page's h1. */}
      {items.length > 0 && <h2 className="visually-hidden">{t('list.profilesHeading')}</h2>}
      {items.length > 0 && (
        // The modal's code (and Radix Dialog with it) loads when a finger or pointer reaches a card, not
        // with the list (issue 14, docs/decisions/0709): the first route carries only what it shows.
        <ul
          className="card-grid"
          data-testid="profile-grid"
          onPointerOver={preloadProfileModal}
          onPointerDown={preloadProfileModal}
          onFocus={preloadProfileModal}
        >
          {items.map((item, index) => (
            <ProfileCard
              key={item.id}
              item={item}
              index={index}
              onOpen={openItem}
              distanceKm={'distance_km' in item && typeof item.distance_km === 'number' ? item.distance_km : undefined}
            />
          ))}
        </ul>
      )}
      {started && list.isPending && !list.isError && (
        <ul className="card-grid" aria-hidden="true">
          {Array.from({ length: 8 }, (_, i) => (
            <li key={i} className="card card--skeleton" />
          ))}
        </ul>
      )}
      <div ref={trigger} className="profile-list__trigger" data-testid="infinite-trigger" aria-hidden="true" />
      <div className="profile-list__status">
        {list.isFetchingNextPage && <InlineSpinner label={t('list.loadingMore')} />}
        {done && items.length === 0 && (empty ?? <p className="empty">{emptyText}</p>)}
        {done && items.length > 0 && <p className="muted">{t('list.end')}</p>}
        {list.isError && (
          <button
            type="button"
            className="button"
            onClick={() => void (items.length ? list.fetchNextPage() : list.refetch())}
          >
            {t('list.loadMore')}
          </button>
        )}
      </div>
    </div>
  );
}
