import formSheet from '../../styles/order-form.css?url';
import itemsSheet from '../../styles/order-items.css?url';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import type { Service } from '#contract/catalog';
import { PACKAGE_TITLES } from '#contract/catalog-constants';
import { formatPercent } from '#contract/money-format';
import { api } from '../../lib/api.ts';
import { toast } from '../../lib/toast-store.ts';
import { Price } from '../../components/ui/price.tsx';
import { loadPaymentRates, usePaymentRates } from '../../lib/payment-rates.ts';
import { OrderItems } from './order-items.tsx';
import { checkoutTotals, defaultPackage, paymentWays, toggleExtra } from './checkout.ts';

// The service page's order form, for a signed-in visitor who is not the seller (loaded lazily: a guest never
// downloads it). The checkout (ADR 042): a package (when the service has them) and extras, itemised with the total
// and what each way to pay adds (its fee from GET /api/payments/rates); «Заказать» then makes the draft (or gives
// the same choice's draft back) and opens its payment page. The seller hears of it once it is paid.

type PackageKind = Service['packages'][number]['kind'];

export default function OrderForm({ service }: { service: Service }) {
  const navigate = useNavigate();
  const packages = service.packages;
  const [chosen, setChosen] = useState<PackageKind | null>(() => defaultPackage(packages));
  const [extras, setExtras] = useState<number[]>([]);
  const [busy, setBusy] = useState(false);
  const { total, days, chosenExtras } = checkoutTotals(service, chosen, extras);
  const rates = usePaymentRates();
  useEffect(() => {
    if (!rates) loadPaymentRates();
  }, [rates]);
  // The ways to pay this total, each with its fee (as the payment page computes it); the balance adds none.
  const ways = paymentWays(rates, total);

  async function order() {
    setBusy(true);
    const { data, error } = await api.write('orders.create', {
      body: { service_id: service._id, package: chosen, extras },
    });
    if (error) {
      setBusy(false);
      toast(error.message);
      return;
    }
    void navigate(`/payments/${data.result._id}`);
  }

  return (
    <>
      {/* React resources: the server's page links them in its <head> with the form. Imported by the form's chunk, they
          came after the page's first paint, which showed the form unstyled and shorter (a layout shift). */}
      <link rel="stylesheet" href={formSheet} precedence="default" />
      <link rel="stylesheet" href={itemsSheet} precedence="default" />
      <form
        className="order-form"
        onSubmit={(e) => {
          e.preventDefault();
          void order();
        }}
      >
        {packages.length > 0 && (
          <fieldset className="order-form__packages">
            <legend className="field__label">Пакет</legend>
            {packages.map((p) => (
              <label key={p.kind} className="order-form__option">
                <input
                  type="radio"
                  name="package"
                  value={p.kind}
                  checked={chosen === p.kind}
                  onChange={() => setChosen(p.kind)}
                />
                <span className="order-form__name">{PACKAGE_TITLES[p.kind]}</span>
                <Price kopecks={p.price} />
              </label>
            ))}
          </fieldset>
        )}
        {service.extras.length > 0 && (
          <fieldset className="order-form__extras">
            <legend className="field__label">Дополнительно</legend>
            {service.extras.map((x, i) => (
              <label key={i} className="order-form__option">
                <input
                  type="checkbox"
                  checked={extras.includes(i)}
                  onChange={(e) => {
                    // Read now: the updater runs at the render, when React may have put the field back already.
                    const on = e.target.checked;
                    setExtras((list) => toggleExtra(list, i, on));
                  }}
                />
                <span className="order-form__name">{x.title}</span>
                <Price kopecks={x.price} prefix="+" />
              </label>
            ))}
          </fieldset>
        )}
        <section className="order-form__checkout" aria-label="Ваш заказ">
          <OrderItems order={{ package: chosen, extras: chosenExtras, price: total }} />
          <p className="order-form__total">
            Итого: <Price kopecks={total} /> <span className="order-form__days">· срок {days} дн.</span>
          </p>
          {ways.length > 0 && (
            <ul className="order-form__ways" aria-label="Комиссия способа оплаты">
              <li>
                <span>С баланса</span> <span>без комиссии</span>
              </li>
              {ways.map((w) => (
                <li key={w.key}>
                  <span>{w.title}</span>{' '}
                  {w.percent > 0 ? (
                    <span>
                      +{formatPercent(w.percent)}: <Price kopecks={w.withFee} />
                    </span>
                  ) : (
                    <span>без комиссии</span>
                  )}
                </li>
              ))}
            </ul>
          )}
          <p className="order-form__note">Исполнитель получит заказ после оплаты. Неоплаченный заказ отменится сам.</p>
        </section>
        <button type="submit" className="btn btn--primary btn--block" disabled={busy}>
          {busy ? 'Оформляем…' : 'Заказать'}
        </button>
      </form>
    </>
  );
}
