// Lets non-React code (the API client, dialogs) navigate inside the SPA. The router registers
// itself on start; before that, and in tests, a full page load is the safe fallback.
type Navigate = (to: string, options?: { replace?: boolean }) => void;

let navigateImpl: Navigate = (to, options) =>
  options?.replace ? window.location.replace(to) : window.location.assign(to);

export function registerNavigator(navigate: Navigate): void {
  navigateImpl = navigate;
}

export function navigate(to: string, options?: { replace?: boolean }): void {
  navigateImpl(to, options);
}

export const NOT_FOUND_PATH = '/page-not-found';

export function goToNotFound(): void {
  navigate(NOT_FOUND_PATH, { replace: true });
}
