import { AppLink } from '../../components/ui/app-link.tsx';
import { useShell } from '../../lib/use-shell.ts';

const LINKS = [
  ['/faq', 'Частые вопросы'],
  ['/help', 'Помощь'],
  ['/about', 'О проекте'],
  ['/contacts', 'Контакты'],
  ['/conditions', 'Условия использования'],
  ['/privacy', 'Политика обработки персональных данных'],
  ['/consent', 'Согласие на обработку персональных данных'],
  ['/blog', 'Блог'],
] as const;

export function Footer() {
  const { config } = useShell();
  return (
    <footer className="footer">
      <div className="container footer__inner">
        <nav aria-label="Информация">
          <ul className="footer__links">
            {LINKS.map(([to, label]) => (
              <li key={to}>
                <AppLink to={to}>{label}</AppLink>
              </li>
            ))}
          </ul>
        </nav>
        <p className="footer__copy">
          © {new Date().getFullYear()} {config.brand} — биржа услуг фрилансеров
        </p>
      </div>
    </footer>
  );
}
