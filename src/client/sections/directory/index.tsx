// Entry of the lazy "directory" section: the public screens.
import type { Category } from '#shared/constants.ts';
import { CATEGORIES } from '#shared/constants.ts';
import type { SectionProps } from '#client/app/sections.ts';
import { ComingSoon } from '#client/components/coming-soon.tsx';
import { ShopPage } from '#client/features/money/components/shop-page.tsx';
import { WhatYouGetPage } from '#client/features/money/components/what-you-get-page.tsx';
import { FeedPage } from '#client/features/pages/feed-page.tsx';
import { HelpPage } from '#client/features/pages/help-page.tsx';
import { BookmarksPage } from './bookmarks-page';
import { CountriesPage } from './countries-page';
import { DirectoryPage } from './directory-page';
import { HomePage } from './home-page';
import { NearbyPage } from './nearby-page';
import { NotFoundPage } from './not-found-page';
import { ProfilePage } from './profile-page';
import { SearchPage } from './search-page';
import './directory.css';

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
