import type { Me } from '#contract/api';
import { POST_PROJECT_PATH } from '../../lib/post-project.ts';

/**
 * What to do once the email is confirmed (issue 25: the page ended there): a seller fills in the profile and creates a
 * service, a buyer finds a service or posts a project; someone not signed in here (the letter opened elsewhere) signs
 * in. Full loads: the header and the guards see the confirmed account at once.
 */
export function NextSteps({ user }: { user: Me | null }) {
  const steps: [string, string][] = !user
    ? [
        ['/login', 'Войти'],
        ['/services/all', 'Найдите услугу'],
      ]
    : user.active_role === 'seller'
      ? [
          ['/profile/settings', 'Заполните профиль'],
          ['/profile/items/create?kind=service', 'Создайте услугу'],
        ]
      : [
          ['/services/all', 'Найдите услугу'],
          [POST_PROJECT_PATH, 'Разместите проект'],
        ];
  return (
    <div className="next-steps" data-testid="next-steps">
      <p className="next-steps__title">Что дальше?</p>
      {steps.map(([href, label], i) => (
        <a key={href} href={href} className={`btn btn--block ${i === 0 ? 'btn--primary' : 'btn--ghost'}`}>
          {label}
        </a>
      ))}
    </div>
  );
}
