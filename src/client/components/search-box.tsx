import { useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { SEARCH_MIN_CHARS } from '#shared/constants.ts';

export const SEARCH_PATH = '/search';

/** Spec section 2: the main search box. Nothing happens below 3 trimmed characters. */
export function SearchBox({ onSearched }: { onSearched?: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const hintId = useId();
  const queryText = location.pathname === SEARCH_PATH ? (new URLSearchParams(location.search).get('q') ?? '') : null;
  const [text, setText] = useState(queryText ?? '');

  // The text follows q whenever the search page is (re)opened, including back/forward.
  useEffect(() => {
    if (queryText !== null) setText(queryText);
  }, [queryText]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const q = text.trim();
    if (q.length < SEARCH_MIN_CHARS) return;
    void navigate(`${SEARCH_PATH}?q=${encodeURIComponent(q)}`);
    onSearched?.();
  };

  return (
    <form className="search" role="search" onSubmit={submit}>
      <label className="visually-hidden" htmlFor={`${hintId}-input`}>
        {t('search.label')}
      </label>
      <input
        id={`${hintId}-input`}
        className="search__input"
        type="search"
        name="q"
        value={text}
        onChange={(event) => setText(event.target.value)}
        placeholder={t('search.placeholder')}
        aria-describedby={hintId}
        autoComplete="off"
        enterKeyHint="search"
      />
      <span id={hintId} className="visually-hidden">
        {t('search.hint', { count: SEARCH_MIN_CHARS })}
      </span>
      <button type="submit" className="search__button">
        {t('search.submit')}
      </button>
    </form>
  );
}
