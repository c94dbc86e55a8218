import type { Route } from './+types/profile-referral';
import { useShell } from '../lib/use-shell.ts';
import { pageMeta } from '../lib/meta.ts';
import { ReferralView, referralLink } from '../features/dashboard/index.ts';
import '../styles/dashboard.css';

// /profile/referral: the person's referral link, the people they brought and their rewards (issue 13).

export async function loader({ context }: Route.LoaderArgs) {
  const res = await context.read('referrals.mine');
  return { data: res.ok ? res.body.result : null };
}

export const meta: Route.MetaFunction = ({ matches }) => [...pageMeta(matches, 'Реферальная программа'), { name: 'robots', content: 'noindex' }];

export default function ReferralPage({ loaderData }: Route.ComponentProps) {
  const { data } = loaderData;
  const { config } = useShell();
  return (
    <section className="page referral">
      <h1 className="page__title">Реферальная программа</h1>
      {data ? (
        <ReferralView data={data} link={referralLink(config.siteUrl, data.code)} />
      ) : (
        <p className="form-error">Не удалось загрузить данные. Обновите страницу через минуту.</p>
      )}
    </section>
  );
}
