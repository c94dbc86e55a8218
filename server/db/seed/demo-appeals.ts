import { and, eq } from 'drizzle-orm';
import type { Db } from '../client.ts';
import type { Services } from '../../app.ts';
import { users } from '../../modules/users/schema.ts';
import { services } from '../../modules/services/schema.ts';

type Demo = Pick<Services, 'appeals'>;

/** The address the demo's appeals are written from (the per-address limit counts it like any other). */
const DEMO_ADDRESS = '127.0.0.1';

/**
 * The demo customer's appeals (issue 14), through the app's own commands: a question the demo admin has answered
 * (its notification and letter were sent), and a new complaint about another seller's service waiting in the queue.
 */
export async function seedDemoAppeals(app: Demo, db: Db): Promise<void> {
  const byName = async (userName: string) => {
    const [row] = await db.select().from(users).where(eq(users.userName, userName));
    if (!row) throw new Error(`demo appeals: no user ${userName}`);
    return row;
  };
  const [customer, admin, seo] = await Promise.all([byName('demo_customer'), byName('demo_admin'), byName('ivan_seo')]);

  const question = await app.appeals.create(customer, DEMO_ADDRESS, {
    subject: 'question',
    object: null,
    text: 'Подскажите, как сменить адрес почты, на который приходят уведомления о заказах?',
    files: [],
  });
  await app.appeals.take(admin, question._id);
  await app.appeals.answer(admin, question._id, {
    answer: 'Адрес меняется в профиле, в разделе «Настройки»: введите новый адрес и пароль, затем подтвердите его по ссылке из письма.',
  });

  const [service] = await db
    .select({ id: services.id })
    .from(services)
    .where(and(eq(services.sellerId, seo.id), eq(services.status, 'active')))
    .limit(1);
  if (!service) throw new Error('demo appeals: no active service of ivan_seo');
  await app.appeals.create(customer, DEMO_ADDRESS, {
    subject: 'service',
    object: service.id,
    text: 'В описании обещают вывести сайт в топ-3 за неделю с гарантией. Похоже на обман: так не бывает.',
    files: [],
  });
}
