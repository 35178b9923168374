// Spec section 9: "The share button style changes at 768 px" (SHARE_BUTTON_BREAKPOINT). The change is CSS
// (round icon buttons below, labelled buttons from there), so the constant is checked against the style
// sheet: a breakpoint moved in one place and not the other fails here.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SHARE_BUTTON_BREAKPOINT } from '#shared/constants.ts';

const css = fs.readFileSync(path.join(import.meta.dirname, 'directory.css'), 'utf8');

/** The selectors inside each `@media (min-width: Npx)` block, by N. */
function minWidthBlocks(text: string): Map<number, string> {
  const blocks = new Map<number, string>();
  const re = /@media \(min-width: (\d+)px\) \{/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    let depth = 1;
    let i = re.lastIndex;
    for (; i < text.length && depth > 0; i++) depth += text[i] === '{' ? 1 : text[i] === '}' ? -1 : 0;
    blocks.set(Number(m[1]), (blocks.get(Number(m[1])) ?? '') + text.slice(re.lastIndex, i));
  }
  return blocks;
}

describe('the share buttons change style at SHARE_BUTTON_BREAKPOINT', () => {
  it('labels the share buttons from that width, and at no other', () => {
    const blocks = minWidthBlocks(css);
    expect(blocks.get(SHARE_BUTTON_BREAKPOINT) ?? '').toMatch(/\.share__button\s*\{/);
    expect(blocks.get(SHARE_BUTTON_BREAKPOINT) ?? '').toMatch(/\.share__text\s*\{/);
    for (const [width, block] of blocks) if (width !== SHARE_BUTTON_BREAKPOINT) expect(block).not.toMatch(/\.share__/);
  });
});
