// One stored picture as the browser should load it: WebP variants in a <source>, the JPEG variants as
// the <img> fallback, `sizes` from the layout, and the intrinsic width and height so the page does not
// shift while it loads (the tiny placeholder shows meanwhile). Used by the SPA and the server render.
import type { CSSProperties } from 'react';
import type { Picture } from '../schemas/media';

export interface PictureImageProps {
  picture: Picture;
  /** How wide the picture is drawn, as a `sizes` attribute. */
  sizes: string;
  alt: string;
  loading?: 'lazy' | 'eager';
  /** 'high' for the page's largest paint (the first listing images, the profile's avatar). */
  fetchPriority?: 'high' | 'low' | 'auto';
  className?: string;
}

export function PictureImage({ picture, sizes, alt, loading = 'lazy', fetchPriority, className }: PictureImageProps) {
  // Set by the browser's script only: a style attribute in the server's HTML would need an inline-style
  // exception in the CSP (docs/decisions/0805), and the SPA replaces that HTML at once anyway.
  const style: CSSProperties | undefined =
    picture.placeholder && typeof document !== 'undefined'
      ? { backgroundImage: `url(${picture.placeholder})`, backgroundSize: 'cover', backgroundPosition: 'center' }
      : undefined;
  return (
    <picture>
      {picture.webp_srcset && <source type="image/webp" srcSet={picture.webp_srcset} sizes={sizes} />}
      <img
        className={className}
        src={picture.src}
        srcSet={picture.srcset || undefined}
        sizes={picture.srcset ? sizes : undefined}
        width={picture.width}
        height={picture.height}
        alt={alt}
        loading={loading}
        fetchPriority={fetchPriority}
        decoding="async"
        style={style}
      />
    </picture>
  );
}

/** `sizes` of the places a picture appears, from the layout's breakpoints (567 px: one column). */
export const PICTURE_SIZES = {
  card: '(max-width: 567px) 50vw, 240px',
  avatar: '(max-width: 567px) 100vw, 320px',
  thumb: '(max-width: 567px) 33vw, 200px',
  edit: '(max-width: 567px) 33vw, 160px',
} as const;
