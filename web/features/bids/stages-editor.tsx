import '../../styles/bids.css';
import { STAGE_DELIVERABLE_MAX, STAGE_TITLE_MAX, STAGES_MAX, STAGES_MIN } from '#contract/bids';
import { formatRubles } from '#contract/money-format';
import { pluralWithCount } from '#contract/plural';
import { TextAreaField, TextField } from '../../components/ui/form.tsx';
import { rublesToKopecks } from '../../lib/money.ts';
import { emptyStage, stageTotals, type BidErrors, type StageDraft } from './bid-rules.ts';

// The bid's work in stages (ADR 065): 2..20 stages, each with what it hands over, its amount and its days, adding up
// to the bid's price and term (the totals shown as they are typed).

const dayCount = (n: number) => pluralWithCount(n, 'день', 'дня', 'дней');

export function StagesEditor(props: { stages: StageDraft[]; setStages: (s: StageDraft[]) => void; errors: BidErrors; price: string; days: string }) {
  const { stages, setStages, errors } = props;
  const totals = stageTotals(stages);
  const price = rublesToKopecks(props.price);
  const days = Number(props.days.trim());
  const priceKnown = price !== undefined && !Number.isNaN(price);
  const daysKnown = props.days.trim() !== '' && Number.isInteger(days);
  const off = (priceKnown && totals.amount !== price) || (daysKnown && totals.days !== days);
  const change = (i: number, field: keyof StageDraft, value: string) => setStages(stages.map((s, j) => (j === i ? { ...s, [field]: value } : s)));
  return (
    <fieldset className="bid-stages" data-testid="bid-stages">
      <legend className="bid-stages__legend">Этапы работы</legend>
      <ol className="bid-stages__list">
        {stages.map((s, i) => (
          <li key={i} className="bid-stages__stage">
            <div className="bid-stages__head">
              <span className="bid-stages__number">Этап {i + 1}</span>
              {stages.length > STAGES_MIN && (
                <button type="button" className="btn btn--quiet btn--sm" onClick={() => setStages(stages.filter((_, j) => j !== i))}>
                  Убрать этап {i + 1}
                </button>
              )}
            </div>
            <TextField label="Название этапа" name={`stages.${i}.title`} value={s.title} maxLength={STAGE_TITLE_MAX + 20} onChange={(e) => change(i, 'title', e.target.value)} errors={errors} />
            <TextAreaField
              label="Что сдаётся по этапу"
              name={`stages.${i}.deliverable`}
              rows={2}
              value={s.deliverable}
              maxLength={STAGE_DELIVERABLE_MAX + 20}
              onChange={(e) => change(i, 'deliverable', e.target.value)}
              errors={errors}
            />
            <div className="bid-form__row">
              <TextField label="Сумма, руб." name={`stages.${i}.amount`} inputMode="decimal" value={s.amount} onChange={(e) => change(i, 'amount', e.target.value)} errors={errors} />
              <TextField label="Срок, дней" name={`stages.${i}.days`} inputMode="numeric" value={s.days} onChange={(e) => change(i, 'days', e.target.value)} errors={errors} />
            </div>
          </li>
        ))}
      </ol>
      {stages.length < STAGES_MAX && (
        <button type="button" className="btn btn--ghost btn--sm" onClick={() => setStages([...stages, emptyStage()])}>
          Добавить этап
        </button>
      )}
      <p className={`bid-stages__total${off ? ' bid-stages__total--off' : ''}`} aria-live="polite" data-testid="bid-stages-total">
        Итого по этапам: {formatRubles(totals.amount)}
        {priceKnown ? ` из ${formatRubles(price)}` : ''}, {dayCount(totals.days)}
        {daysKnown ? ` из ${days}` : ''}
      </p>
      {errors.stages && (
        <p className="field__error" role="alert">
          {errors.stages.join('. ')}
        </p>
      )}
    </fieldset>
  );
}
