import { useCallback, useEffect, useRef, type MouseEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ProfileItem } from '#shared/schemas/directory.ts';
import { ProfileCardView } from '#shared/views/directory-view.tsx';
import type { Translate } from '#shared/views/profile-view.tsx';
import { routerLink } from '#client/components/router-link.tsx';
import { observeImpression } from '#client/lib/impressions.ts';

export function ProfileCard({
  item,
  index,
  onOpen,
  distanceKm,
  extra,
}: {
  item: ProfileItem;
  /** Position in the list: the first cards load their images first (shared/views/directory-view). */
  index: number;
  /** A plain click opens the profile modal over the list; other clicks (new tab...) follow the link. */
  onOpen?: (id: number) => void;
  /** Nearby lists: the distance to the visitor. */
  distanceKm?: number;
  /** Controls beside the link (the bookmarks list puts its remove button here). */
  extra?: ReactNode;
}) {
  const { t, i18n } = useTranslation('directory');
  const translate = useCallback<Translate>((key, options) => t(key, options ?? {}), [t]);
  const ref = useRef<HTMLLIElement>(null);

  // An impression: the card was at least half on screen (lib/impressions).
  useEffect(() => {
    const element = ref.current;
    return element ? observeImpression(element, item.id) : undefined;
  }, [item.id]);

  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (!onOpen || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    onOpen(item.id);
  };

  return (
    <ProfileCardView
      item={item}
      index={index}
      t={translate}
      lang={i18n.language}
      renderLink={routerLink}
      onClick={onClick}
      cardRef={ref}
      distanceKm={distanceKm}
      extra={extra}
    />
  );
}
