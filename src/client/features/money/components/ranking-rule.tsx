// The whole rule that orders every directory list (DESIGN.md "Directory and position": no hidden boosts).
import { useTranslation } from 'react-i18next';

const STEPS = ['listed', 'order', 'ties', 'new', 'topup', 'position', 'nothingElse'] as const;

export function RankingRule() {
  const { t } = useTranslation('money');
  return (
    <div className="money-card" data-testid="ranking-rule">
      <h2 className="money-card__title">{t('ranking.title')}</h2>
      <ol className="money-rule">
        {STEPS.map((s) => (
          <li key={s}>{t(`ranking.${s}`)}</li>
        ))}
      </ol>
    </div>
  );
}
