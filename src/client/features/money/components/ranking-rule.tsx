// The whole rule that orders every directory list (DESIGN.md "Directory and position": no hidden boosts),
// stated from the constants the directory's SQL is built from (#shared/ranking.ts): one sentence per
// entry, in the same order. ranking-rule.test.ts holds the page and the constants together.
import { useTranslation } from 'react-i18next';
import { AVATAR_CHANGE_MAX_POSITION } from '#shared/constants.ts';
import { NOT_IN_RANKING, RANKING_LISTS, RANKING_MOVES, RANKING_ORDER } from '#shared/ranking.ts';

export function RankingRule() {
  const { t } = useTranslation('money');
  return (
    <div className="money-card money-rule" data-testid="ranking-rule">
      <h2 className="money-card__title">{t('ranking.title')}</h2>
      <p>{t('ranking.listed')}</p>
      <p>{t('ranking.orderIntro')}</p>
      <ol data-testid="ranking-order">
        {RANKING_ORDER.map((k) => (
          <li key={k.key} data-rank-key={k.key}>
            {t(`ranking.order.${k.key}`)}
          </li>
        ))}
      </ol>
      <ul data-testid="ranking-moves">
        {RANKING_MOVES.map((m) => (
          <li key={m} data-rank-move={m}>
            {t(`ranking.moves.${m}`)}
          </li>
        ))}
      </ul>
      <ul data-testid="ranking-lists">
        {Object.keys(RANKING_LISTS).map((list) => (
          <li key={list} data-rank-list={list}>
            {t(`ranking.lists.${list}`)}
          </li>
        ))}
      </ul>
      <p data-testid="ranking-position">{t('ranking.position', { position: AVATAR_CHANGE_MAX_POSITION })}</p>
      <p>{t('ranking.nothingElse')}</p>
      <ul data-testid="ranking-not-used">
        {NOT_IN_RANKING.map((n) => (
          <li key={n} data-rank-not={n}>
            {t(`ranking.notUsed.${n}`)}
          </li>
        ))}
      </ul>
    </div>
  );
}
