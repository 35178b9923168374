// Entry of the lazy "directory" section: the public screens.
import { lazy } from 'react';
import type { Category } from '#shared/constants.ts';
import { CATEGORIES } from '#shared/constants.ts';
import type { SectionProps } from '#client/lib/route-paths.ts';
import { ComingSoon } from '#client/components/coming-soon.tsx';
import { BookmarksPage } from '#client/features/directory/bookmarks-page.tsx';
import { CountriesPage } from '#client/features/directory/countries-page.tsx';
import { DirectoryPage } from '#client/features/directory/directory-page.tsx';
import { HomePage } from '#client/features/directory/home-page.tsx';
import { NearbyPage } from '#client/features/directory/nearby-page.tsx';
import { NotFoundPage } from '#client/features/directory/not-found-page.tsx';
import { ProfilePage } from '#client/features/directory/profile-page.tsx';
import { SearchPage } from '#client/features/directory/search-page.tsx';
import '#client/features/directory/directory.css';

// Pages seldom opened first load apart: the help form's kit and the money parts are not in the code of a
// listing or a profile (issue 14: the initial route loads only what it shows; decision 0708).
const ShopPage = lazy(() =>
  import('#client/features/money/components/shop-page.tsx').then((m) => ({ default: m.ShopPage })),
);
const WhatYouGetPage = lazy(() =>
  import('#client/features/money/components/what-you-get-page.tsx').then((m) => ({ default: m.WhatYouGetPage })),
);
const FeedPage = lazy(() => import('#client/features/pages/feed-page.tsx').then((m) => ({ default: m.FeedPage })));
const HelpPage = lazy(() => import('#client/features/pages/help-page.tsx').then((m) => ({ default: m.HelpPage })));

const isCategory = (route: string): route is Category => (CATEGORIES as readonly string[]).includes(route);

export function DirectorySection({ route }: SectionProps) {
  if (isCategory(route)) return <DirectoryPage category={route} />;
  switch (route) {
    case 'home':
      return <HomePage />;
    case 'countries':
      return <CountriesPage />;
    case 'profile':
    case 'profile-by-name':
      return <ProfilePage byName={route === 'profile-by-name'} />;
    case 'search':
      return <SearchPage />;
    case 'nearby':
      return <NearbyPage />;
    case 'bookmarks':
      return <BookmarksPage />;
    case 'page-not-found':
      return <NotFoundPage />;
    case 'shop':
      return <ShopPage />;
    case 'what-you-get':
      return <WhatYouGetPage />;
    case 'feed':
      return <FeedPage />;
    case 'help':
      return <HelpPage />;
    default:
      return <ComingSoon route={route} />;
  }
}
