// The audit log's words (ADR 036, ADR 046): every action the server records, as the admin reads it. Zod-free: the
// admin's pages import it. server/platform/audit.ts takes only these actions, so a new one needs its label here.

export const AUDIT_ACTION_LABELS = {
  'user.block': 'Пользователь заблокирован',
  'user.unblock': 'Пользователь разблокирован',
  'user.grant_admin': 'Выданы права администратора',
  'user.revoke_admin': 'Сняты права администратора',
  'user.two_factor_on': 'Включена двухфакторная защита',
  'user.two_factor_off': 'Выключена двухфакторная защита',
  'user.two_factor_reset': 'Двухфакторная защита сброшена администратором',
  'user.passkey_added': 'Добавлен ключ доступа',
  'user.passkey_removed': 'Удалён ключ доступа',
  'service.approve': 'Услуга одобрена',
  'service.reject': 'Услуга отклонена',
  'service.hide': 'Услуга скрыта',
  'service.restore': 'Услуга восстановлена',
  'service.edit': 'Услуга отредактирована',
  'service.approve-edit': 'Правка услуги одобрена',
  'service.reject-edit': 'Правка услуги отклонена',
  'project.hide': 'Проект скрыт',
  'project.restore': 'Проект восстановлен',
  'project.edit': 'Проект отредактирован',
  'bid.remove': 'Отклик удалён',
  'review.remove': 'Отзыв удалён',
  'withdrawal.approve': 'Вывод одобрен',
  'withdrawal.reject': 'Вывод отклонён',
  'payment_difference.resolve': 'Расхождение сверки отмечено решённым',
  'payment_difference.apply': 'Расхождение сверки исправлено результатом провайдера',
  'dispute.take': 'Спор взят в работу',
  'dispute.resolve': 'Решение по спору',
  'appeal.take': 'Обращение взято в работу',
  'appeal.answer': 'Ответ на обращение',
  'blog.create': 'Статья создана',
  'blog.update': 'Статья изменена',
  'blog.publish': 'Статья опубликована',
  'blog.unpublish': 'Статья снята с публикации',
  'blog.delete': 'Статья удалена',
  'routeRule.create': 'Правило адреса создано',
  'routeRule.update': 'Правило адреса изменено',
  'routeRule.remove': 'Правило адреса удалено',
  'search_suggestion.hide': 'Поисковая подсказка скрыта',
  'settings.update': 'Настройки изменены',
  'privacy.publish': 'Опубликована новая редакция документа о персональных данных',
  'privacy.deletion_request': 'Запрошено удаление аккаунта',
  'privacy.deletion_cancel': 'Удаление аккаунта отменено',
  'privacy.anonymise': 'Персональные данные аккаунта удалены',
} as const;

export type AuditAction = keyof typeof AUDIT_ACTION_LABELS;

/** An action's label; an unknown one (an older row) as it was recorded. */
export const auditActionLabel = (action: string): string =>
  (AUDIT_ACTION_LABELS as Record<string, string>)[action] ?? action;

/** Details that are sums of money, in kopecks: shown in rubles. */
export const AUDIT_MONEY_DETAILS: ReadonlySet<string> = new Set([
  'amount',
  'price',
  'sellerAmount',
  'customerAmount',
  'commission',
]);

/** The details' names as the admin reads them; a name without one is shown as recorded. */
export const AUDIT_DETAIL_LABELS: Record<string, string> = {
  reason: 'Причина',
  amount: 'Сумма',
  price: 'Цена',
  method: 'Способ',
  status: 'Статус',
  fields: 'Поля',
  title: 'Заголовок',
  number: 'Номер',
  answer: 'Ответ',
  author: 'Автор',
  project: 'Проект',
  seller: 'Исполнитель',
  outcome: 'Исход',
  sellerPercent: 'Исполнителю, %',
  sellerAmount: 'Исполнителю',
  customerAmount: 'Заказчику',
  commission: 'Комиссия',
  previous: 'Было',
  provider: 'Провайдер',
  kind: 'Вид',
  provider_ref: 'Номер у провайдера',
};
