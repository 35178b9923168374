// Entry of the lazy "edit" section. The media screens (/edit/media, /edit/gallery, /edit/verify) live
// in features/media, the auto-topup screen in features/money; the other edit screens are not built yet
// and show a translated "coming soon".
import type { SectionProps } from '#client/app/sections.ts';
import { ComingSoon } from '#client/components/coming-soon.tsx';
import { GalleryPage } from '#client/features/media/gallery-page.tsx';
import { MediaPage } from '#client/features/media/media-page.tsx';
import { VerifyPage } from '#client/features/media/verify-page.tsx';
import { AutoTopupPage } from '#client/features/money/components/auto-topup-page.tsx';

export function EditSection({ route }: SectionProps) {
  switch (route) {
    case 'edit-media':
      return <MediaPage />;
    case 'edit-gallery':
      return <GalleryPage />;
    case 'edit-verify':
      return <VerifyPage />;
    case 'edit-auto-topup':
      return <AutoTopupPage />;
    default:
      return <ComingSoon route={route} />;
  }
}
