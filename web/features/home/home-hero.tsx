import { useShell } from '../../lib/use-shell.ts';

/** How many categories the hero names (the catalogue's first ones, in its order). */
const POPULAR = 6;

const STEPS = [
  ['Выберите исполнителя', 'Найдите услугу в каталоге или опубликуйте проект и получите отклики.'],
  ['Оплатите заказ', 'Деньги резервируются на площадке, исполнитель видит, что заказ оплачен.'],
  ['Примите работу', 'Исполнитель получит оплату только после того, как вы примете результат.'],
] as const;

/**
 * A guest's welcome on the home page (issue 15): what Подряд is, a search, popular categories and how the safe deal
 * works. Plain links and a GET form, rendered by the server: in the browser it stays as the server's HTML (the
 * route renders it through `deferred()`), so it adds no JavaScript to a guest's first page.
 */
export function HomeHero() {
  const { config, catalogue } = useShell();
  return (
    <section className="hero" aria-labelledby="hero-title">
      <div className="hero__intro">
        <h2 id="hero-title" className="hero__title">
          {config.brand} — биржа фриланс-услуг
        </h2>
        <p className="hero__lead">Логотипы, сайты, тексты и переводы от фрилансеров — с безопасной сделкой.</p>
        <form method="get" action="/services/all" role="search" className="hero__search">
          <label htmlFor="hero-search" className="visually-hidden">
            Что нужно сделать?
          </label>
          <input id="hero-search" name="q" type="search" className="input" placeholder="Что нужно сделать? Например, логотип" maxLength={200} />
          <button type="submit" className="btn btn--primary">
            Найти
          </button>
        </form>
        <nav aria-label="Популярные категории">
          <ul className="hero__categories">
            {catalogue.slice(0, POPULAR).map((c) => (
              <li key={c.slug}>
                <a href={`/services/${c.slug}`} className="chip">
                  {c.title}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      </div>
      <div className="hero__deal">
        <h3 className="hero__deal-title">Как работает безопасная сделка</h3>
        <ol className="hero__steps">
          {STEPS.map(([title, text]) => (
            <li key={title}>
              <strong>{title}.</strong> <span className="hero__step-text">{text}</span>
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}
