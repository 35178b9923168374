// Entry of the lazy "edit" section: /edit/{id} with its sections and the completion walk, /edit/location
// and /edit/directory/listing (features/edit); the media screens (/edit/media, /edit/gallery, /edit/verify,
// features/media); the auto-topup screen (features/money).
import type { SectionProps } from '#client/lib/route-paths.ts';
import { ComingSoon } from '#client/components/coming-soon.tsx';
import { EditPage } from '#client/features/edit/edit-page.tsx';
import { ListingsPage, LocationPage } from '#client/features/edit/location-pages.tsx';
import { GalleryPage } from '#client/features/media/gallery-page.tsx';
import { MediaPage } from '#client/features/media/media-page.tsx';
import { PhotoVerificationPage } from '#client/features/media/photo-verification-page.tsx';
import { AutoTopupPage } from '#client/features/money/components/auto-topup-page.tsx';

export function EditSection({ route }: SectionProps) {
  switch (route) {
    case 'edit':
      return <EditPage />;
    case 'edit-location':
      return <LocationPage />;
    case 'edit-listing':
      return <ListingsPage />;
    case 'edit-media':
      return <MediaPage />;
    case 'edit-gallery':
      return <GalleryPage />;
    case 'edit-verify':
      return <PhotoVerificationPage />;
    case 'edit-auto-topup':
      return <AutoTopupPage />;
    default:
      return <ComingSoon route={route} />;
  }
}
