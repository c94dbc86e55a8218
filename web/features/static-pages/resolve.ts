import { LIVE_FEATURES, type Feature, type PageLink, type StaticPage, type Text } from './content.ts';

/** A static page as shown today: the texts whose feature is not live yet in their meanwhile form, or left out. */
export interface ShownPage {
  title: string;
  lead: string;
  faq: { question: string; answer: string; link?: PageLink }[];
  sections: { heading: string; link?: PageLink; paragraphs: string[]; items: string[] }[];
}

export function resolvePage(page: StaticPage, brand: string, live: Record<Feature, boolean> = LIVE_FEATURES): ShownPage {
  const b = (text: string) => text.replaceAll('{brand}', brand);
  const shown = (text: Text): string | undefined =>
    typeof text === 'string' ? b(text) : live[text.needs] ? b(text.text) : text.meanwhile && b(text.meanwhile);
  const all = (texts: Text[] = []) => texts.map(shown).filter((t): t is string => t !== undefined);
  const ready = (needs?: Feature) => !needs || live[needs];
  return {
    title: page.title,
    lead: shown(page.lead) ?? '',
    faq: (page.faq ?? [])
      .filter((q) => ready(q.needs))
      .flatMap((q) => {
        const answer = shown(q.answer);
        return answer === undefined ? [] : [{ question: b(q.question), answer, link: q.link }];
      }),
    sections: page.sections
      .filter((s) => ready(s.needs))
      .map((s) => ({ heading: b(s.heading), link: s.link, paragraphs: all(s.paragraphs), items: all(s.items) }))
      .filter((s) => s.paragraphs.length > 0 || s.items.length > 0),
  };
}
