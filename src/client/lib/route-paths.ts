/** React Router cannot match a parameter inside a segment ("/@:name"), so that route matches any
 *  single segment and RouteScreen checks the "@" itself; static routes still win by rank. */
export const HANDLE_PARAM = 'handle';

export function routerPath(path: string): string {
  return path.startsWith('/@:') ? `/:${HANDLE_PARAM}` : path;
}

/** What the app gives a section's entry component (sections/<name>/index.tsx). */
export interface SectionProps {
  /** Route name from #shared/routes. */
  route: string;
}
