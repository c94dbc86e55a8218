// The messages every page's shell may show (its title on an error, the error screen): apart from MESSAGES, which
// re-exports them, so that a browsing guest's pages do not carry every API message (issue 11).

export const PAGE_MESSAGES = {
  unexpected: 'Непредвиденная ошибка',
  notFoundTitle: 'Упс! Данной страницы не существует.',
  notFoundText: 'Страница, которую вы ищете, недоступна.',
  notFoundBreadcrumb: 'Страница не найдена',
  notFoundBack: 'Вернуться на главную',
  home: 'Главная',
} as const;
