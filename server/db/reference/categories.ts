// Reference taxonomy of service categories and sub-categories.
// Slugs are lowercase latin kebab-case and unique across categories AND sub-categories.
// Titles are in Russian, sentence case (only the first word capitalised).

export interface ReferenceCategory {
  slug: string;
  title: string;
  subs: { slug: string; title: string }[];
}

export const categories: ReferenceCategory[] = [
  {
    slug: 'design',
    title: 'Дизайн',
    subs: [
      { slug: 'logo-design', title: 'Логотипы' },
      { slug: 'brand-identity', title: 'Фирменный стиль' },
      { slug: 'web-design', title: 'Дизайн сайтов и приложений' },
      { slug: 'banners-icons', title: 'Баннеры и иконки' },
      { slug: 'print-design', title: 'Полиграфия' },
      { slug: 'illustration', title: 'Иллюстрации и рисунки' },
      { slug: 'marketplace-cards', title: 'Карточки для маркетплейсов' },
      { slug: 'presentation-design', title: 'Презентации и инфографика' },
      { slug: 'packaging-design', title: 'Упаковка и этикетки' },
    ],
  },
  {
    slug: 'development',
    title: 'Разработка и IT',
    subs: [
      { slug: 'website-development', title: 'Создание сайтов' },
      { slug: 'website-fixes', title: 'Доработка и настройка сайтов' },
      { slug: 'landing-pages', title: 'Лендинги' },
      { slug: 'mobile-apps', title: 'Мобильные приложения' },
      { slug: 'bots-development', title: 'Чат-боты' },
      { slug: 'scripts-parsers', title: 'Скрипты и парсеры' },
      { slug: 'desktop-software', title: 'Десктопные программы' },
      { slug: 'game-development', title: 'Разработка игр' },
      { slug: 'onec-programming', title: 'Программирование 1С' },
    ],
  },
  {
    slug: 'texts-translations',
    title: 'Тексты и переводы',
    subs: [
      { slug: 'copywriting', title: 'Копирайтинг' },
      { slug: 'rewriting', title: 'Рерайтинг' },
      { slug: 'seo-texts', title: 'SEO-тексты' },
      { slug: 'selling-texts', title: 'Продающие тексты' },
      { slug: 'proofreading', title: 'Корректура и редактура' },
      { slug: 'translations', title: 'Переводы' },
      { slug: 'transcription', title: 'Набор и расшифровка текста' },
      { slug: 'scripts-scenarios', title: 'Сценарии' },
      { slug: 'naming-slogans', title: 'Нейминг и слоганы' },
    ],
  },
  {
    slug: 'seo-traffic',
    title: 'SEO и трафик',
    subs: [
      { slug: 'seo-audit', title: 'SEO-аудит' },
      { slug: 'internal-optimization', title: 'Внутренняя оптимизация' },
      { slug: 'link-building', title: 'Ссылки и крауд-маркетинг' },
      { slug: 'semantic-core', title: 'Семантическое ядро' },
      { slug: 'context-ads', title: 'Контекстная реклама' },
      { slug: 'web-analytics', title: 'Веб-аналитика' },
      { slug: 'local-seo', title: 'Продвижение на картах' },
    ],
  },
  {
    slug: 'smm-marketing',
    title: 'Соцсети и маркетинг',
    subs: [
      { slug: 'vk-promotion', title: 'Продвижение во ВКонтакте' },
      { slug: 'telegram-promotion', title: 'Продвижение в Telegram' },
      { slug: 'community-management', title: 'Ведение сообществ' },
      { slug: 'targeted-ads', title: 'Таргетированная реклама' },
      { slug: 'content-plan', title: 'Контент-план и посты' },
      { slug: 'email-marketing', title: 'Email-рассылки' },
      { slug: 'marketing-strategy', title: 'Маркетинговая стратегия' },
      { slug: 'marketplace-promotion', title: 'Продвижение на маркетплейсах' },
    ],
  },
  {
    slug: 'audio-video',
    title: 'Аудио, видео, съёмка',
    subs: [
      { slug: 'video-editing', title: 'Монтаж видео' },
      { slug: 'motion-design', title: 'Анимация и моушн-дизайн' },
      { slug: 'intros-outros', title: 'Интро и заставки' },
      { slug: 'voice-over', title: 'Озвучка и дикторы' },
      { slug: 'music-songs', title: 'Музыка и песни' },
      { slug: 'audio-editing', title: 'Обработка аудио' },
      { slug: 'video-shooting', title: 'Видеосъёмка' },
      { slug: 'short-videos', title: 'Короткие видео для соцсетей' },
    ],
  },
  {
    slug: 'business-life',
    title: 'Бизнес и жизнь',
    subs: [
      { slug: 'business-plans', title: 'Бизнес-планы' },
      { slug: 'market-research', title: 'Исследования рынка' },
      { slug: 'sales-scripts', title: 'Скрипты продаж' },
      { slug: 'hr-recruiting', title: 'Подбор персонала' },
      { slug: 'consulting', title: 'Консалтинг' },
      { slug: 'psychology-coaching', title: 'Психология и коучинг' },
      { slug: 'personal-assistant', title: 'Личный помощник' },
    ],
  },
  {
    slug: 'education',
    title: 'Учёба и репетиторство',
    subs: [
      { slug: 'school-tutoring', title: 'Школьные предметы' },
      { slug: 'exam-preparation', title: 'Подготовка к ЕГЭ и ОГЭ' },
      { slug: 'foreign-languages', title: 'Иностранные языки' },
      { slug: 'programming-lessons', title: 'Уроки программирования' },
      { slug: 'music-lessons', title: 'Уроки музыки' },
      { slug: 'online-courses', title: 'Создание онлайн-курсов' },
      { slug: 'career-consulting', title: 'Карьерные консультации' },
    ],
  },
  {
    slug: 'architecture-engineering',
    title: 'Архитектура и инжиниринг',
    subs: [
      { slug: 'interior-design', title: 'Дизайн интерьера' },
      { slug: 'architectural-design', title: 'Архитектурное проектирование' },
      { slug: 'landscape-design', title: 'Ландшафтный дизайн' },
      { slug: 'drawings-cad', title: 'Чертежи и схемы' },
      { slug: 'engineering-systems', title: 'Инженерные системы' },
      { slug: 'construction-estimates', title: 'Сметы' },
      { slug: 'product-design', title: 'Промышленный дизайн' },
    ],
  },
  {
    slug: 'accounting-legal',
    title: 'Бухгалтерия и юристы',
    subs: [
      { slug: 'accounting', title: 'Бухгалтерский учёт' },
      { slug: 'tax-reporting', title: 'Налоговая отчётность' },
      { slug: 'tax-deductions', title: 'Налоговые вычеты и 3-НДФЛ' },
      { slug: 'company-registration', title: 'Регистрация ИП и ООО' },
      { slug: 'contracts', title: 'Договоры и документы' },
      { slug: 'legal-advice', title: 'Юридические консультации' },
      { slug: 'trademark-registration', title: 'Регистрация товарных знаков' },
    ],
  },
  {
    slug: 'administration-support',
    title: 'Администрирование и поддержка',
    subs: [
      { slug: 'server-administration', title: 'Администрирование серверов' },
      { slug: 'hosting-domains', title: 'Хостинг и домены' },
      { slug: 'website-security', title: 'Защита и лечение сайтов' },
      { slug: 'crm-setup', title: 'Настройка CRM' },
      { slug: 'data-entry', title: 'Наполнение сайтов' },
      { slug: 'customer-support', title: 'Поддержка клиентов' },
      { slug: 'pc-help', title: 'Компьютерная помощь' },
    ],
  },
  {
    slug: 'photo-3d',
    title: 'Фото и 3D',
    subs: [
      { slug: 'photo-retouching', title: 'Обработка и ретушь фото' },
      { slug: 'background-removal', title: 'Удаление фона' },
      { slug: 'product-photography', title: 'Предметная съёмка' },
      { slug: 'photo-sessions', title: 'Фотосессии' },
      { slug: 'three-d-modeling', title: '3D-моделирование' },
      { slug: 'three-d-visualization', title: '3D-визуализация' },
      { slug: 'three-d-printing', title: 'Модели для 3D-печати' },
    ],
  },
  {
    slug: 'ai-neural-networks',
    title: 'Нейросети',
    subs: [
      { slug: 'ai-images', title: 'Генерация изображений' },
      { slug: 'ai-texts', title: 'Тексты с помощью нейросетей' },
      { slug: 'ai-video', title: 'Видео и аватары' },
      { slug: 'ai-integration', title: 'Внедрение ИИ в бизнес' },
      { slug: 'prompt-engineering', title: 'Составление промптов' },
    ],
  },
];
