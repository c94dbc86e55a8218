import { useSearchParams } from 'react-router';
import type { Route } from './+types/profile-disputes';
import { pageMeta } from '../lib/meta.ts';
import { AppLink } from '../components/ui/app-link.tsx';
import { MyDisputes } from '../features/disputes/index.ts';
import { MyAppeals } from '../features/appeals/index.ts';
import '../styles/chat.css';
import '../styles/items.css';
import '../styles/disputes.css';

// /profile/disputes (issue 14): two tabs, the person's disputes («Споры») and their appeals to the administration
// («Обращения», ?tab=appeals). Each tab is its feature's own component.

type Tab = 'disputes' | 'appeals';
const TABS: { value: Tab; label: string; to: string }[] = [
  { value: 'disputes', label: 'Споры', to: '/profile/disputes' },
  { value: 'appeals', label: 'Обращения', to: '/profile/disputes?tab=appeals' },
];

export const meta: Route.MetaFunction = ({ matches }) => [...pageMeta(matches, 'Споры и обращения'), { name: 'robots', content: 'noindex' }];

export default function ProfileDisputesPage() {
  const [params] = useSearchParams();
  const tab: Tab = params.get('tab') === 'appeals' ? 'appeals' : 'disputes';
  return (
    <section className="page disputes-page">
      <h1 className="page__title">Споры и обращения</h1>
      <nav className="tabs" aria-label="Раздел">
        <ul>
          {TABS.map((t) => (
            <li key={t.value}>
              <AppLink to={t.to} className="tabs__link" aria-current={t.value === tab ? 'page' : undefined}>
                {t.label}
              </AppLink>
            </li>
          ))}
        </ul>
      </nav>
      {tab === 'appeals' ? <MyAppeals /> : <MyDisputes />}
    </section>
  );
}
