// A file picker as a button, with an optional step before the picker opens (the avatar's "Attention"
// dialog) and a progress bar while the upload runs.
import { useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export function ProgressBar({ value, label, testId }: { value: number; label: string; testId?: string }) {
  const percent = Math.round(value * 100);
  return (
    <div className="media-progress" data-testid={testId}>
      <progress max={100} value={percent} aria-label={label} />
      <span className="small muted" aria-live="polite">
        {label}
      </span>
    </div>
  );
}

export function UploadButton({
  label,
  accept,
  onFiles,
  progress,
  multiple = false,
  disabled = false,
  beforePick,
  primary = false,
  testId,
  children,
}: {
  label: string;
  accept: string;
  onFiles: (files: File[]) => void;
  /** 0-1 while uploading, null otherwise. */
  progress: number | null;
  multiple?: boolean;
  disabled?: boolean;
  /** Runs first; the picker opens only when it resolves true. */
  beforePick?: () => Promise<boolean>;
  primary?: boolean;
  testId?: string;
  children?: ReactNode;
}) {
  const { t } = useTranslation('media');
  const input = useRef<HTMLInputElement>(null);
  const busy = progress !== null;
  const pick = async () => {
    if (beforePick && !(await beforePick())) return;
    input.current?.click();
  };
  return (
    <div className="media-upload">
      <input
        ref={input}
        type="file"
        accept={accept}
        multiple={multiple}
        hidden
        data-testid={testId ? `${testId}-input` : undefined}
        onChange={(event) => {
          const files = [...(event.target.files ?? [])];
          // The same file may be chosen again after a refusal.
          event.target.value = '';
          if (files.length) onFiles(files);
        }}
      />
      <button
        type="button"
        className={primary ? 'button button--primary' : 'button'}
        onClick={() => void pick()}
        disabled={disabled || busy}
        data-testid={testId}
      >
        {label}
      </button>
      {children}
      {busy && (
        <ProgressBar
          value={progress}
          label={t('upload.progress', { percent: Math.round(progress * 100) })}
          testId={testId ? `${testId}-progress` : undefined}
        />
      )}
    </div>
  );
}
