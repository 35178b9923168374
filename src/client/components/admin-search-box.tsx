import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';

export const ADMIN_USERS_PATH = '/admin/users';

/** Spec section 2: the admin search box goes to /admin/users?q=, with no minimum length. */
export function AdminSearchBox({ className }: { className?: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const id = useId();
  const current = location.pathname === ADMIN_USERS_PATH ? (new URLSearchParams(location.search).get('q') ?? '') : '';
  const [text, setText] = useState(current);
  const [seen, setSeen] = useState(current);
  // The box follows q when the users screen is (re)opened with another query.
  if (current !== seen) {
    setSeen(current);
    setText(current);
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void navigate(`${ADMIN_USERS_PATH}?q=${encodeURIComponent(text.trim())}`);
  };

  return (
    <form
      className={`search search--admin${className ? ` ${className}` : ''}`}
      role="search"
      aria-label={t('adminSearch.label')}
      onSubmit={submit}
    >
      <label className="visually-hidden" htmlFor={id}>
        {t('adminSearch.label')}
      </label>
      <input
        id={id}
        className="search__input"
        type="search"
        name="q"
        value={text}
        onChange={(event) => setText(event.target.value)}
        placeholder={t('adminSearch.placeholder')}
        autoComplete="off"
        enterKeyHint="search"
      />
      <button type="submit" className="search__button">
        {t('adminSearch.submit')}
      </button>
    </form>
  );
}
