/** The green check of a verified profile (spec section 4), on cards and in the profile view. */
export function VerifiedBadge({ label }: { label: string }) {
  return (
    <span className="verified" title={label || undefined}>
      <svg viewBox="0 0 20 20" width="16" height="16" aria-hidden="true" focusable="false">
        <circle cx="10" cy="10" r="10" fill="currentColor" />
        <path
          d="M5.5 10.5l3 3 6-6.5"
          fill="none"
          stroke="#fff"
          strokeWidth="2.2"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
      {label && <span className="visually-hidden">{label}</span>}
    </span>
  );
}
