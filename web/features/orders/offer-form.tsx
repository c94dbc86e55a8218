import { Suspense, useState, type FormEvent } from 'react';
import type { Offer } from '#contract/offers';
import { api } from '../../lib/api.ts';
import { toast } from '../../lib/toast-store.ts';
import { kopecksToRubles, rublesToKopecks } from '../../lib/money.ts';
import { Checkbox, FormError, TextAreaField, TextField } from '../../components/ui/form.tsx';
import { StagesEditor, type StageDraft } from '../bids/index.ts';

// The seller's offer of a new job in an order chat (ADR 066): its title, what it is, price and term, maybe in stages.
// The server checks it (the contract's offer schema); its field errors show by their fields.

type Errors = Record<string, string[]>;
const blankStage = (): StageDraft => ({ title: '', deliverable: '', amount: '', days: '' });
const number = (text: string) => (text.trim() === '' ? NaN : Number(text.trim()));

/** What the form sends: rubles and days as numbers (NaN is left for the server to refuse in Russian). */
export function offerBody(
  form: { title: string; description: string; price: string; days: string },
  stages: StageDraft[] | null,
) {
  return {
    title: form.title,
    description: form.description,
    price: rublesToKopecks(form.price) ?? NaN,
    days: number(form.days),
    stages:
      stages &&
      stages.map((s) => ({
        title: s.title,
        deliverable: s.deliverable,
        amount: rublesToKopecks(s.amount) ?? NaN,
        days: number(s.days),
      })),
  };
}

export function OfferForm({ orderId, offer, onDone }: { orderId: string; offer: Offer | null; onDone: () => void }) {
  const [form, setForm] = useState({
    title: offer?.title ?? '',
    description: offer?.description ?? '',
    price: offer ? kopecksToRubles(offer.price) : '',
    days: offer ? String(offer.days) : '',
  });
  const [split, setSplit] = useState(!!offer?.stages);
  const [stages, setStages] = useState<StageDraft[]>(() =>
    offer?.stages
      ? offer.stages.map((s) => ({
          title: s.title,
          deliverable: s.deliverable,
          amount: kopecksToRubles(s.amount),
          days: String(s.days),
        }))
      : [blankStage(), blankStage()],
  );
  const [errors, setErrors] = useState<Errors>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (field: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm({ ...form, [field]: e.target.value });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    const sent = await api.write('offers.create', {
      params: { id: orderId },
      body: offerBody(form, split ? stages : null),
    });
    setBusy(false);
    if (sent.error) {
      setErrors(sent.error.errors ?? {});
      setProblem(sent.error.errors ? null : sent.error.message);
      return;
    }
    toast(offer ? 'Предложение изменено' : 'Предложение отправлено', { type: 'success' });
    onDone();
  };

  return (
    <form className="offer-form" onSubmit={submit} noValidate data-testid="offer-form">
      <TextField label="Что сделать" name="title" value={form.title} onChange={set('title')} errors={errors} required />
      <TextAreaField
        label="Описание"
        name="description"
        rows={3}
        value={form.description}
        onChange={set('description')}
        errors={errors}
        required
      />
      <div className="bid-form__row">
        <TextField
          label="Цена, руб."
          name="price"
          inputMode="decimal"
          value={form.price}
          onChange={set('price')}
          errors={errors}
          required
        />
        <TextField
          label="Срок, дней"
          name="days"
          inputMode="numeric"
          value={form.days}
          onChange={set('days')}
          errors={errors}
          required
        />
      </div>
      <Checkbox label="Разбить на этапы" name="split" checked={split} onChange={(e) => setSplit(e.target.checked)} />
      {split && (
        <Suspense fallback={null}>
          <StagesEditor stages={stages} setStages={setStages} errors={errors} price={form.price} days={form.days} />
        </Suspense>
      )}
      <FormError message={problem} />
      <div className="offer-form__actions">
        <button type="submit" className="btn btn--primary" disabled={busy}>
          {offer ? 'Отправить изменённое' : 'Отправить предложение'}
        </button>
      </div>
    </form>
  );
}
