// Formats of our own for i18next's {{value, format}}: every i18next instance that says our catalogues
// (the browser's, the server's, the component tests') adds them after init.
//
//   {{country, region}}              an ISO 3166 code as the country's name in the text's language
//                                    ("GB": "United Kingdom", "Vereinigtes Königreich", "Reino Unido")
//   {{country, region(article: the)}} English only: with "the" where English says it ("the United Kingdom",
//                                    "the Netherlands", but "Germany"); other languages word their sentences
//                                    so that the name stands alone ("… in diesem Land: Vereinigtes Königreich").
import type { i18n as I18n } from 'i18next';
import { intlLocale } from '../views/format.ts';

/** Countries whose English name takes "the" (by their names as Intl gives them in en-GB). */
const ENGLISH_THE = new Set(
  'AE AX BQ BS CC CF CK DO FK FO GB GM IO KM KY MH MP MV NL PH PN PS SB SC TC TF UM US VA VG VI'.split(' '),
);

/** A country's name in `language`, or the code itself when Intl does not know it. */
export function regionName(code: string, language: string, article?: unknown): string {
  let name = code;
  try {
    name = new Intl.DisplayNames([intlLocale(language)], { type: 'region' }).of(code.toUpperCase()) ?? code;
  } catch {
    // not a region code: the code as it is
  }
  return article === 'the' && language.startsWith('en') && ENGLISH_THE.has(code.toUpperCase()) ? `the ${name}` : name;
}

export function addFormatters(i18n: I18n): void {
  i18n.services.formatter?.add('region', (value: unknown, lng: string | undefined, options: { article?: unknown }) =>
    regionName(String(value), lng ?? 'en', options?.article),
  );
}
