import { useNavigate } from 'react-router';

/** Spec section 2: goes to `to` when given, otherwise one step back (home when there is no step). */
export function BackButton({ to, label }: { to?: string; label: string }) {
  const navigate = useNavigate();
  const onClick = () => {
    if (to) void navigate(to);
    // React Router numbers its history entries; 0 means this page was the first one opened.
    else if (((window.history.state as { idx?: number } | null)?.idx ?? 0) > 0) void navigate(-1);
    else void navigate('/');
  };
  return (
    <button type="button" className="button button--ghost back-button" onClick={onClick}>
      <span aria-hidden="true">←</span> {label}
    </button>
  );
}
