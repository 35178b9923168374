// The fallback chains of i18next, the one table both sides read: a key missing in Portuguese reads
// Spanish, everything ends in English. Plain TypeScript (no import.meta.glob), so the server's i18n
// (src/server/lib/i18n.ts, run by tsx) imports it as well as index.ts.
import type { Language } from '../constants';

export const FALLBACK_LANGUAGES: Record<Language | 'default', string[]> = {
  en: [],
  de: ['en'],
  es: ['en'],
  pt: ['es', 'en'],
  default: ['en'],
};
