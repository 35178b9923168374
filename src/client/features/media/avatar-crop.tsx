// The avatar's crop, chosen before the upload (issue 23 item 17, docs/decisions/0314): cards and the
// profile show the avatar at 3:4, so the advertiser drags and zooms (pinch on a phone) a 3:4 frame over
// her photo with react-easy-crop, and the browser cuts that part out (a canvas, at the photo's own
// resolution up to the widest variant we keep) and uploads it. The server's pipeline is unchanged: it
// strips metadata and makes the variants of whatever arrives. A photo the browser cannot draw (HEIC in
// Chromium) is uploaded whole, as before, and shown centred.
import { useCallback, useEffect, useRef, useState } from 'react';
import Cropper, { type Area } from 'react-easy-crop';
import { useTranslation } from 'react-i18next';
import { VARIANT_WIDTHS } from '#shared/schemas/media.ts';
// The component's own styles from our bundle: its injected <style> tag would need the CSP's nonce.
import 'react-easy-crop/react-easy-crop.css';

export const AVATAR_ASPECT = 3 / 4;
const MAX_WIDTH = VARIANT_WIDTHS[VARIANT_WIDTHS.length - 1];

/** The chosen part of `src` as a JPEG file named after the original (null when the browser cannot draw it). */
export async function cropToFile(src: string, area: Area, name: string): Promise<File | null> {
  const image = new Image();
  image.src = src;
  try {
    await image.decode();
  } catch {
    return null;
  }
  const scale = Math.min(1, MAX_WIDTH / area.width);
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(area.width * scale));
  canvas.height = Math.max(1, Math.round(area.height * scale));
  const context = canvas.getContext('2d');
  if (!context) return null;
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.drawImage(image, area.x, area.y, area.width, area.height, 0, 0, canvas.width, canvas.height);
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', 0.92));
  if (!blob) return null;
  return new File([blob], name.replace(/\.[^.]*$/, '') + '.jpg', { type: 'image/jpeg' });
}

/** Can this browser draw the picked file? (Chromium cannot draw HEIC: that one goes up uncropped.) */
async function drawable(src: string): Promise<boolean> {
  const image = new Image();
  image.src = src;
  return image.decode().then(
    () => true,
    () => false,
  );
}

/**
 * A modal over the media screen: the photo under a 3:4 frame, a zoom slider, "Use this crop" and
 * "Cancel". `onDone(file)` gets the cropped JPEG, or the original when the browser cannot draw it;
 * `onDone(null)` means cancelled.
 */
export function AvatarCropDialog({ file, onDone }: { file: File; onDone: (file: File | null) => void }) {
  const { t } = useTranslation('media');
  const dialog = useRef<HTMLDialogElement>(null);
  const [src] = useState(() => URL.createObjectURL(file));
  const [crop, setCrop] = useState({ x: 0, y: 0 });
  const [zoom, setZoom] = useState(1);
  const [area, setArea] = useState<Area | null>(null);
  const [ready, setReady] = useState<boolean | null>(null);
  const [busy, setBusy] = useState(false);
  // The latest callback, without re-running the effects when the parent re-renders.
  const done = useRef(onDone);
  done.current = onDone;

  useEffect(() => () => URL.revokeObjectURL(src), [src]);
  useEffect(() => {
    let live = true;
    void drawable(src).then((ok) => {
      if (!live) return;
      if (ok) setReady(true);
      // Nothing to crop in this browser: the whole photo goes up, as it did before the crop existed.
      else done.current(file);
    });
    return () => {
      live = false;
    };
  }, [src, file]);
  useEffect(() => {
    const d = dialog.current;
    if (ready && d && !d.open) d.showModal();
  }, [ready]);

  const onComplete = useCallback((_: Area, pixels: Area) => setArea(pixels), []);
  const use = async () => {
    if (!area) return;
    setBusy(true);
    const cropped = await cropToFile(src, area, file.name);
    dialog.current?.close();
    done.current(cropped ?? file);
  };
  const cancel = () => {
    dialog.current?.close();
    done.current(null);
  };

  return (
    <dialog
      ref={dialog}
      className="avatar-crop"
      aria-labelledby="avatar-crop-title"
      data-testid="avatar-crop"
      onCancel={(event) => {
        event.preventDefault();
        cancel();
      }}
    >
      <h2 id="avatar-crop-title" className="avatar-crop__title">
        {t('crop.title')}
      </h2>
      <p className="small muted">{t('crop.hint')}</p>
      <div className="avatar-crop__area">
        {ready && (
          <Cropper
            image={src}
            crop={crop}
            zoom={zoom}
            aspect={AVATAR_ASPECT}
            minZoom={1}
            maxZoom={4}
            onCropChange={setCrop}
            onZoomChange={setZoom}
            onCropComplete={onComplete}
            objectFit="contain"
            disableAutomaticStylesInjection
          />
        )}
      </div>
      <label className="avatar-crop__zoom">
        <span className="small">{t('crop.zoom')}</span>
        <input
          type="range"
          min={1}
          max={4}
          step={0.05}
          value={zoom}
          onChange={(event) => setZoom(Number(event.target.value))}
          data-testid="avatar-crop-zoom"
        />
      </label>
      <div className="avatar-crop__actions">
        <button type="button" className="button button--ghost" onClick={cancel} disabled={busy}>
          {t('cancel')}
        </button>
        <button
          type="button"
          className="button button--primary"
          onClick={() => void use()}
          disabled={!area || busy}
          data-testid="avatar-crop-use"
        >
          {t('crop.use')}
        </button>
      </div>
    </dialog>
  );
}
