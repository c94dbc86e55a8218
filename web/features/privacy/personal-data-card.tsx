import { apiBaseUrl } from '../../lib/api.ts';
import { AppLink } from '../../components/ui/app-link.tsx';

/** /profile/settings: the person's personal data (ADR 052): the export as a JSON file, the texts they agreed to. */
export function PersonalDataCard() {
  return (
    <section className="card" aria-labelledby="personal-data-title">
      <h2 id="personal-data-title" className="card__title">
        Персональные данные
      </h2>
      <p className="field__hint">
        Файл JSON со всеми вашими данными: профиль, согласия, услуги, проекты, заказы, ваши сообщения и отзывы, платежи,
        сеансы и уведомления. Как мы их обрабатываем — в <AppLink to="/privacy">политике обработки персональных данных</AppLink>.
      </p>
      <a className="btn btn--ghost" href={`${apiBaseUrl()}/api/privacy/export`} download>
        Скачать мои данные
      </a>
    </section>
  );
}
