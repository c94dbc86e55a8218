import '../../styles/order-form.css';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { Service } from '#contract/catalog';
import { PACKAGE_TITLES } from '#contract/catalog-constants';
import { api } from '../../lib/api.ts';
import { toast } from '../../lib/toast-store.ts';
import { Price } from '../../components/ui/price.tsx';

// The service page's order form, for a signed-in visitor who is not the seller (loaded lazily: a guest never
// downloads it). A package (when the service has them) and extras, the total, then the order awaiting payment.

type PackageKind = Service['packages'][number]['kind'];

export default function OrderForm({ service }: { service: Service }) {
  const navigate = useNavigate();
  const packages = service.packages;
  const [chosen, setChosen] = useState<PackageKind | null>(() => packages.find((p) => p.kind === 'standard')?.kind ?? packages[0]?.kind ?? null);
  const [extras, setExtras] = useState<number[]>([]);
  const [busy, setBusy] = useState(false);
  const base = packages.find((p) => p.kind === chosen) ?? { price: service.price, days: service.days };
  const total = base.price + extras.reduce((s, i) => s + (service.extras[i]?.price ?? 0), 0);
  const days = base.days + extras.reduce((s, i) => s + (service.extras[i]?.days ?? 0), 0);

  async function order() {
    setBusy(true);
    const { data, error } = await api.write('orders.create', { body: { service_id: service._id, package: chosen, extras } });
    if (error) {
      setBusy(false);
      toast(error.message);
      return;
    }
    void navigate(`/payments/${data.result._id}`);
  }

  return (
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
              <input type="radio" name="package" value={p.kind} checked={chosen === p.kind} onChange={() => setChosen(p.kind)} />
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
                onChange={(e) => setExtras((list) => (e.target.checked ? [...list, i].sort((a, b) => a - b) : list.filter((v) => v !== i)))}
              />
              <span className="order-form__name">{x.title}</span>
              <Price kopecks={x.price} prefix="+" />
            </label>
          ))}
        </fieldset>
      )}
      <p className="order-form__total">
        Итого: <Price kopecks={total} /> <span className="order-form__days">· срок {days} дн.</span>
      </p>
      <button type="submit" className="btn btn--primary btn--block" disabled={busy}>
        {busy ? 'Оформляем…' : 'Заказать'}
      </button>
    </form>
  );
}
