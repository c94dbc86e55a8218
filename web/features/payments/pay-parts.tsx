import type { OrderPayMethod, Quote } from '#contract/payments';
import { formatCurrency, formatRubles } from '#contract/money-format';
import { AppLink } from '../../components/ui/app-link.tsx';
import { METHOD_LABELS, quoteHoldText, quoteTimerText } from './labels.ts';
import { methodAmountText, methodNote, orderChatLink } from './pay-logic.ts';

// The payment page's pieces that only show: a way to pay, the crypto quote, the paid order, the payment waiting.

export function MethodOption({ m, checked, onChoose }: { m: OrderPayMethod; checked: boolean; onChoose: () => void }) {
  return (
    <label className={`pay-method${checked ? ' pay-method--on' : ''}${m.usable ? '' : ' pay-method--off'}`}>
      <input type="radio" name="method" value={m.method} checked={checked} disabled={!m.usable} onChange={onChoose} />
      <span className="pay-method__body">
        <span className="pay-method__title">{m.title}</span>
        <span className="pay-method__note">{methodNote(m)}</span>
      </span>
      <span className="pay-method__amount">{methodAmountText(m)}</span>
    </label>
  );
}

/** The crypto amount at a held rate, its countdown, and the button that takes (or renews) the quote. */
export function QuoteBox(props: {
  quote: Quote | null;
  left: number;
  currency: string;
  quoteMinutes: number;
  busy: boolean;
  onQuote: () => void;
}) {
  const { quote, left, busy, onQuote } = props;
  return (
    <div className="pay-quote">
      {quote ? (
        <>
          <p className="pay-quote__amount">
            К оплате: <strong>{formatCurrency(quote.currency_amount, quote.currency)}</strong>
          </p>
          <p className="muted">
            Курс: 1 {quote.currency} = {formatRubles(Math.round(quote.rate * 100))}
          </p>
          {left > 0 ? (
            <p className="pay-quote__timer" aria-live="polite">
              {quoteTimerText(left)}
            </p>
          ) : (
            <p className="form-error" role="alert">
              Курс устарел, получите новый расчёт
            </p>
          )}
          {left <= 0 && (
            <button type="button" className="btn btn--ghost" disabled={busy} onClick={onQuote}>
              Обновить курс
            </button>
          )}
        </>
      ) : (
        <button type="button" className="btn btn--ghost" disabled={busy} onClick={onQuote}>
          Рассчитать сумму в {props.currency}
        </button>
      )}
      <p className="muted pay-quote__hint">{quoteHoldText(props.quoteMinutes)}</p>
    </div>
  );
}

export function PayDone({ note, chatId, stage = false }: { note: string; chatId: string | null; stage?: boolean }) {
  return (
    <div className="card pay-done" role="status">
      <h2 className="pay-done__title">{stage ? 'Этап оплачен' : 'Заказ оплачен'}</h2>
      <p className="muted">{note}</p>
      <p className="pay-done__actions">
        <AppLink className="btn btn--primary" to={orderChatLink(chatId)}>
          Перейти в чат заказа
        </AppLink>
        <AppLink className="btn btn--ghost" to="/profile/payments">
          Мои платежи
        </AppLink>
      </p>
    </div>
  );
}

/** A provider's payment being confirmed: its status instead of a second form, with a way out to another method. */
export function PayWait(props: { method: string; checking: boolean; onCheck: () => void; onOtherWay: () => void }) {
  return (
    <div className="card pay-wait" role="status">
      <h2 className="pay-wait__title">Платёж ждёт подтверждения</h2>
      <p className="muted">
        {METHOD_LABELS[props.method] ?? props.method}: ждём подтверждения от платёжной системы. Страница обновится сама, как только оно придёт.
      </p>
      <p className="pay-wait__actions">
        <button type="button" className="btn btn--primary" disabled={props.checking} onClick={props.onCheck}>
          Проверить ещё раз
        </button>
        <button type="button" className="btn btn--ghost" onClick={props.onOtherWay}>
          Выбрать другой способ
        </button>
      </p>
    </div>
  );
}
