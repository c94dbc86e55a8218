// The catalogue's refusals, in Russian: the forms and the API need them, a browsing guest's pages do not (issue 11).

export const CATALOG_MESSAGES = {
  serviceNotFound: 'Услуга не найдена',
  projectNotFound: 'Проект не найден',
  personNotFound: 'Пользователь не найден',
  unknownCategory: 'Выберите категорию из списка',
  unknownSub: 'Подкатегория не из выбранной категории',
  sellerOnly: 'Размещать услуги могут продавцы: включите режим «Продавец»',
  customerOnly: 'Размещать проекты можно в режиме «Покупатель»',
  badCursor: 'Неверная ссылка на страницу списка',
  notYourImage: 'Изображение должно быть загружено вами',
  cannotChange: 'Это действие сейчас недоступно',
  badSuggestion: 'Такой поисковый запрос не может быть подсказкой',
} as const;
