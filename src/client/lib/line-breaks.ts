/**
 * Spec section 2: in each item of the validation-error dialog only the first line break is shown.
 * Returns the text before it and the rest with its further breaks folded into spaces (null: none).
 */
export function splitAtFirstLineBreak(text: string): [string, string | null] {
  const at = text.search(/\r?\n/);
  if (at < 0) return [text, null];
  const rest = text.slice(at).replace(/^\r?\n/, '');
  return [text.slice(0, at), rest.replace(/[ \t]*\r?\n[ \t]*/g, ' ')];
}
