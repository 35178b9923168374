// /what-you-get states the whole ranking rule (DESIGN.md: no hidden boosts). The directory's SQL is built
// from #shared/ranking.ts (listings/ranking.test.ts checks that side); this checks the page against the
// same constants: one stated sentence per sort key, move, list and thing that does not count, in the
// constants' order, in every language, and each sentence still meaning what its constant does.
import { createElement } from 'react';
import type { i18n as I18n } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { AVATAR_CHANGE_MAX_POSITION } from '#shared/constants.ts';
import {
  NOT_IN_RANKING,
  POSITION_LIST,
  RANKING_LISTS,
  RANKING_MOVES,
  RANKING_ORDER,
  rankingOrderBy,
} from '#shared/ranking.ts';
import { RankingRule } from './components/ranking-rule';
import { renderWith, testI18n } from '#client/lib/test-i18n.ts';

/**
 * What each stated sentence says, in the terms of the SQL. Changing a constant (another column, the
 * other direction) fails here until the sentence in the catalogues is rewritten and this line with it.
 */
const SENTENCE_MEANS = {
  lastTopup: { column: 'bumped_at', direction: 'desc' },
  olderListing: { column: 'id', direction: 'asc' },
} as const;

let i18n: I18n;

beforeAll(async () => {
  i18n = await testI18n(['money']);
});

async function render(lng: string) {
  await i18n.changeLanguage(lng);
  const html = renderWith(i18n, createElement(RankingRule));
  const items = (attribute: string) =>
    [...html.matchAll(new RegExp(`<li ${attribute}="([^"]+)">([^<]*)</li>`, 'g'))].map((m) => ({
      key: m[1],
      text: m[2],
    }));
  return {
    html,
    order: items('data-rank-key'),
    moves: items('data-rank-move'),
    lists: items('data-rank-list'),
    notUsed: items('data-rank-not'),
  };
}

describe('the ranking rule on /what-you-get', () => {
  it('sorts by the keys the page explains, in the same order, meaning the same thing', () => {
    expect(RANKING_ORDER.map(({ key, column, direction }) => [key, { column, direction }])).toEqual(
      Object.entries(SENTENCE_MEANS),
    );
    expect(rankingOrderBy('l')).toBe('l.bumped_at desc nulls last, l.id asc');
    expect(POSITION_LIST).toEqual({ listing: 'home', category: 'escorts' });
  });

  for (const lng of ['en', 'de', 'es']) {
    it(`states every part of it in ${lng}`, async () => {
      const page = await render(lng);
      expect(page.order.map((i) => i.key)).toEqual(RANKING_ORDER.map((k) => k.key));
      expect(page.moves.map((i) => i.key)).toEqual([...RANKING_MOVES]);
      expect(page.lists.map((i) => i.key)).toEqual(Object.keys(RANKING_LISTS));
      expect(page.notUsed.map((i) => i.key)).toEqual([...NOT_IN_RANKING]);
      const sentences = [...page.order, ...page.moves, ...page.lists, ...page.notUsed].map((i) => i.text);
      // Each one translated (an untranslated key would show as "ranking.order.lastTopup") and distinct.
      for (const text of sentences) expect(text).not.toMatch(/^ranking\.|^$/);
      expect(new Set(sentences).size).toBe(sentences.length);
      // The avatar rule's threshold is the constant's.
      expect(page.html).toMatch(new RegExp(`data-testid="ranking-position">[^<]*\\b${AVATAR_CHANGE_MAX_POSITION}\\b`));
    });
  }
});
