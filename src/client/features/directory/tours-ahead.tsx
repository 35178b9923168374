// A city page's coming visitors (issue 27 item 4, docs/decisions/0323), below its advertisers: who starts
// a tour here within the next 14 days, with the dates on each card ("Visiting from ..."). They are in the
// list above too, at the place the ranking rule gives them: this section only gathers them by date. The
// feed's new tours link here (#tours-ahead).
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import type { DirectoryFilter } from '#shared/schemas/directory.ts';
import { useToursAhead } from './api';
import { ProfileCard } from './profile-card';

export const TOURS_AHEAD_ANCHOR = 'tours-ahead';

export function ToursAheadSection({ filter }: { filter: DirectoryFilter & { place: string } }) {
  const { t } = useTranslation('directory');
  const query = useToursAhead(filter);
  const location = useLocation();
  const section = useRef<HTMLElement>(null);
  const items = query.data?.data ?? [];

  // Arriving from the feed's link: the section comes after the list's first page, so the browser's own
  // jump to the anchor found nothing yet.
  const shown = items.length > 0;
  useEffect(() => {
    if (shown && location.hash === `#${TOURS_AHEAD_ANCHOR}`) section.current?.scrollIntoView({ block: 'start' });
  }, [shown, location.hash]);

  if (!shown) return null;
  return (
    <section
      ref={section}
      id={TOURS_AHEAD_ANCHOR}
      className="tours-ahead"
      aria-labelledby="tours-ahead-title"
      data-testid="tours-ahead"
    >
      <h2 id="tours-ahead-title" className="tours-ahead__title">
        {t('toursAhead.title', { days: query.data!.days })}
      </h2>
      <p className="small muted">{t('toursAhead.lead')}</p>
      <ul className="card-grid">
        {items.map((item, index) => (
          <ProfileCard key={item.id} item={item} index={index + 24} />
        ))}
      </ul>
    </section>
  );
}
