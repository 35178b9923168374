import { useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { SEARCH_MIN_CHARS } from '#shared/constants.ts';

export const SEARCH_PATH = '/search';

/**
 * Spec section 2: the main search box. Nothing happens below 3 trimmed characters, but the box says why
 * (a silent button read as broken). `className` places it (the top bar's row on directory screens).
 */
export function SearchBox({ onSearched, className }: { onSearched?: () => void; className?: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const hintId = useId();
  const queryText = location.pathname === SEARCH_PATH ? (new URLSearchParams(location.search).get('q') ?? '') : null;
  const [text, setText] = useState(queryText ?? '');
  const [tooShort, setTooShort] = useState(false);

  // The text follows q whenever the search page is (re)opened, including back/forward.
  useEffect(() => {
    if (queryText !== null) setText(queryText);
  }, [queryText]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const q = text.trim();
    setTooShort(q.length < SEARCH_MIN_CHARS);
    if (q.length < SEARCH_MIN_CHARS) return;
    void navigate(`${SEARCH_PATH}?q=${encodeURIComponent(q)}`);
    onSearched?.();
  };

  return (
    <form
      className={className ? `search ${className}` : 'search'}
      role="search"
      aria-label={t('search.label')}
      onSubmit={submit}
    >
      <label className="visually-hidden" htmlFor={`${hintId}-input`}>
        {t('search.label')}
      </label>
      <input
        id={`${hintId}-input`}
        className="search__input"
        type="search"
        name="q"
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setTooShort(false);
        }}
        placeholder={t('search.placeholder')}
        aria-describedby={hintId}
        aria-invalid={tooShort || undefined}
        autoComplete="off"
        enterKeyHint="search"
      />
      <span id={hintId} className="visually-hidden">
        {t('search.hint', { count: SEARCH_MIN_CHARS })}
      </span>
      <button type="submit" className="search__button">
        {t('search.submit')}
      </button>
      {/* Always in the page, so that screen readers announce the text when it appears. */}
      <p className="search__message" role="status" data-testid="search-message">
        {tooShort ? t('search.hint', { count: SEARCH_MIN_CHARS }) : null}
      </p>
    </form>
  );
}
