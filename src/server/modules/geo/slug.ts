// URL slugs of countries and cities: lowercase ASCII letters and hyphens only (SLUG_PATTERN).
import { foldText } from '../profiles/profile-derive';

// Letters that survive accent folding (other scripts). GeoNames names are nearly all Latin; a few
// Cyrillic and Greek ones remain, so they get a plain transliteration instead of vanishing.
// prettier-ignore
const TRANSLIT: Record<string, string> = {
  а: 'a', б: 'b', в: 'v', г: 'g', ґ: 'g', д: 'd', е: 'e', ё: 'e', є: 'ye', ж: 'zh', з: 'z', и: 'i', і: 'i',
  ї: 'yi', й: 'y', к: 'k', л: 'l', м: 'm', н: 'n', о: 'o', п: 'p', р: 'r', с: 's', т: 't', у: 'u', ў: 'u',
  ф: 'f', х: 'kh', ц: 'ts', ч: 'ch', ш: 'sh', щ: 'shch', ъ: '', ы: 'y', ь: '', э: 'e', ю: 'yu', я: 'ya',
  ә: 'a', ө: 'o', ү: 'u', ң: 'n', ғ: 'gh', қ: 'q', һ: 'h',
  α: 'a', β: 'v', γ: 'g', δ: 'd', ε: 'e', ζ: 'z', η: 'i', θ: 'th', ι: 'i', κ: 'k', λ: 'l', μ: 'm', ν: 'n',
  ξ: 'x', ο: 'o', π: 'p', ρ: 'r', σ: 's', ς: 's', τ: 't', υ: 'y', φ: 'f', χ: 'ch', ψ: 'ps', ω: 'o',
  ə: 'e', ǝ: 'e', ɛ: 'e', ɔ: 'o', ʻ: '', ʿ: '', ʾ: '', "'": '',
};

/**
 * `Côte d'Ivoire` -> `cote-divoire`, `Łódź` -> `lodz`, `Zürich` -> `zurich`, `St. Gallen` -> `st-gallen`.
 * Apostrophes join (`d'Ivoire`, `Kam'yanets`), every other run of non-letters becomes one hyphen.
 * May return '' for a name with no Latin-convertible letter; callers must handle that.
 */
export function slugify(name: string): string {
  return foldText(name)
    .replace(/[^a-z-]/g, (ch) => TRANSLIT[ch] ?? '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '');
}
