import { describe, expect, it } from 'vitest';
import { REVIEW_ROLES } from '#contract/review-constants';
import { aboutText, answerAuthorText, authorRoleText, personName, RATING_WORDS, reviewFormTexts, savedReviewText } from './format.ts';

describe('reviews’ words', () => {
  it.each([
    ['customer', 'Заказчик', 'отзыв о исполнителе', 'Ответ исполнителя'],
    ['seller', 'Исполнитель', 'отзыв о заказчике', 'Ответ заказчика'],
  ] as const)('a review by the %s is signed «%s», listed as «%s», answered under «%s»', (role, signed, about, answer) => {
    expect(authorRoleText({ author_role: role })).toBe(signed);
    expect(aboutText({ author_role: role })).toBe(about);
    expect(answerAuthorText({ author_role: role })).toBe(answer);
  });

  it('asks the customer for a text and leaves it to the seller', () => {
    expect(reviewFormTexts('customer')).toEqual({
      target: 'Исполнитель',
      textLabel: 'Отзыв',
      placeholder: 'Как прошла работа: качество, сроки, общение',
      required: true,
    });
    expect(reviewFormTexts('seller')).toEqual({
      target: 'Заказчик',
      textLabel: 'Отзыв (необязательно)',
      placeholder: 'Как прошло сотрудничество с заказчиком',
      required: false,
    });
    for (const role of REVIEW_ROLES) expect(reviewFormTexts(role).target).not.toBe(authorRoleText({ author_role: role }));
  });

  it('says whether a saved review is published yet', () => {
    expect(savedReviewText(true)).toBe('Отзыв опубликован');
    expect(savedReviewText(false)).toBe('Отзыв сохранён. Он появится, когда отзыв оставит и другая сторона');
  });

  it('has a word for each mark from 1 to 5', () => {
    expect([1, 2, 3, 4, 5].map((n) => RATING_WORDS[n])).toEqual(['Плохо', 'Так себе', 'Нормально', 'Хорошо', 'Отлично']);
    expect(RATING_WORDS[0]).toBeUndefined();
  });

  it.each([
    [{ name: 'Светлана', surname: 'Орлова', user_name: 'sveta' }, 'Светлана Орлова'],
    [{ name: 'Светлана', surname: '', user_name: 'sveta' }, 'Светлана'],
    [{ name: '', surname: '', user_name: 'sveta' }, 'sveta'],
  ])('names %j as %j', (p, name) => {
    expect(personName(p)).toBe(name);
  });
});
