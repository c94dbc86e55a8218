import { sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { users } from '../schema/users.ts';
import { createUser, DEFAULT_PASSWORD } from '../factories.ts';

export interface DemoAccount {
  email: string;
  password: string;
  role: string;
}

export const DEMO_ACCOUNTS: DemoAccount[] = [
  { email: 'seller@example.com', password: DEFAULT_PASSWORD, role: 'seller' },
  { email: 'customer@example.com', password: DEFAULT_PASSWORD, role: 'customer' },
  { email: 'admin@example.com', password: DEFAULT_PASSWORD, role: 'admin' },
];

const SELLERS: [string, string, string, string][] = [
  ['anna_design', 'Анна', 'Соколова', 'Дизайнер логотипов и фирменного стиля, 8 лет опыта.'],
  ['dmitry_dev', 'Дмитрий', 'Кузнецов', 'Full-stack разработчик: сайты на React и Node.js, Telegram-боты.'],
  ['olga_texts', 'Ольга', 'Морозова', 'Копирайтер и редактор, тексты для сайтов и соцсетей.'],
  ['ivan_seo', 'Иван', 'Лебедев', 'SEO-специалист: аудит, семантическое ядро, продвижение.'],
  ['maria_smm', 'Мария', 'Волкова', 'Веду соцсети брендов: контент-план, таргет, аналитика.'],
];
const CUSTOMERS: [string, string, string][] = [
  ['sergey_shop', 'Сергей', 'Попов'],
  ['ekaterina_cafe', 'Екатерина', 'Новикова'],
  ['pavel_startup', 'Павел', 'Козлов'],
];

/** Demo data for a fresh database: only when SEED_DEMO is on and nobody has registered yet. */
export async function seedDemo(db: Db): Promise<DemoAccount[] | null> {
  const [{ count }] = (await db.select({ count: sql<number>`count(*)::int` }).from(users)) as [{ count: number }];
  if (count > 0) return null;
  const [seller, customer, admin] = DEMO_ACCOUNTS as [DemoAccount, DemoAccount, DemoAccount];

  await createUser(db, { email: seller.email, userName: 'demo_seller', name: 'Алексей', surname: 'Смирнов', role: 'seller',
    about: 'Веб-дизайнер и верстальщик. Делаю лендинги и интернет-магазины под ключ.' });
  await createUser(db, { email: customer.email, userName: 'demo_customer', name: 'Татьяна', surname: 'Иванова', role: 'customer' });
  await createUser(db, { email: admin.email, userName: 'demo_admin', name: 'Михаил', surname: 'Администратор', role: 'admin' });
  for (const [userName, name, surname, about] of SELLERS) {
    await createUser(db, { email: `${userName}@example.com`, userName, name, surname, about, role: 'seller' });
  }
  for (const [userName, name, surname] of CUSTOMERS) {
    await createUser(db, { email: `${userName}@example.com`, userName, name, surname, role: 'customer' });
  }
  return DEMO_ACCOUNTS;
}
