// The country last browsed, so the menu's category links stay in it (a visitor in Spain who picks
// "Male Escorts" wants Spain, not the country list).
const KEY = 'last-country';

export function readLastCountry(): string | null {
  try {
    return window.localStorage.getItem(KEY);
  } catch {
    return null;
  }
}

export function rememberCountry(slug: string): void {
  try {
    window.localStorage.setItem(KEY, slug);
  } catch {
    // Private mode: the menu then links categories to the country list instead.
  }
}
