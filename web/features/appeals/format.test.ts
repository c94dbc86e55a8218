import { describe, expect, it } from 'vitest';
import { APPEAL_MESSAGES, APPEAL_MIN_ANSWER, APPEAL_STATUSES, APPEAL_SUBJECTS } from '#contract/appeal-constants';
import { answerError, answerRefusal, APPEAL_STATUS_TONES, appealFormErrors, appealsPath, formSubject, foundText } from './format.ts';

const ID = '5f0c6a8e-1b2c-4d3e-8f90-123456789abc';

describe('appealsPath', () => {
  it.each([
    [undefined, undefined, '/profile/disputes?tab=appeals'],
    ['service', undefined, '/profile/disputes?tab=appeals&subject=service'],
    ['service', ID, `/profile/disputes?tab=appeals&subject=service&object=${ID}`],
    // An object without a subject still travels: the form falls back to a question on its own.
    [undefined, ID, `/profile/disputes?tab=appeals&object=${ID}`],
    ['', '', '/profile/disputes?tab=appeals'],
  ])('subject %j, object %j → %s', (subject, object, path) => {
    expect(appealsPath(subject, object)).toBe(path);
  });

  it('encodes what would break the query', () => {
    const path = appealsPath('a&b=c', 'x y/#');
    expect(path).toBe('/profile/disputes?tab=appeals&subject=a%26b%3Dc&object=x%20y%2F%23');
    const params = new URL(path, 'https://podryad.test').searchParams;
    expect(params.get('subject')).toBe('a&b=c');
    expect(params.get('object')).toBe('x y/#');
    expect(params.get('b')).toBeNull();
  });
});

describe('APPEAL_STATUS_TONES', () => {
  it('gives every state a tone, each a different one', () => {
    expect(Object.keys(APPEAL_STATUS_TONES).sort()).toEqual([...APPEAL_STATUSES].sort());
    expect(new Set(Object.values(APPEAL_STATUS_TONES)).size).toBe(APPEAL_STATUSES.length);
  });
  it.each([
    ['new', 'warning'],
    ['in_progress', 'success'],
    ['closed', 'muted'],
  ] as const)('%s is %s', (status, tone) => {
    expect(APPEAL_STATUS_TONES[status]).toBe(tone);
  });
});

describe('formSubject', () => {
  const withObject = APPEAL_SUBJECTS.filter((s) => s !== 'question');

  it.each(withObject)('%s with an object opens as itself', (subject) => {
    expect(formSubject(subject, ID)).toBe(subject);
  });
  it.each(withObject)('%s without an object is a question (nothing to name)', (subject) => {
    expect(formSubject(subject, null)).toBe('question');
    expect(formSubject(subject, '')).toBe('question');
  });
  it.each([
    ['question', null],
    ['question', ID],
    [null, null],
    [null, ID],
    ['', ID],
    ['complaint', ID],
    ['SERVICE', ID],
    ['service ', ID],
    ['__proto__', ID],
    ['toString', ID],
  ])('%j (object %j) is a question', (wanted, object) => {
    expect(formSubject(wanted, object)).toBe('question');
  });
});

describe('appealFormErrors', () => {
  it('puts the text error under the text, and nothing above the button', () => {
    expect(appealFormErrors({ message: 'Проверьте поля', errors: { text: [APPEAL_MESSAGES.textTooShort, 'second'] } })).toEqual({
      text: APPEAL_MESSAGES.textTooShort,
      files: undefined,
      form: undefined,
    });
  });

  it.each([
    ['files', { files: [APPEAL_MESSAGES.tooManyFiles] }, APPEAL_MESSAGES.tooManyFiles],
    ['files.0', { 'files.0': [APPEAL_MESSAGES.notYourFile] }, APPEAL_MESSAGES.notYourFile],
    ['files.3', { 'files.3': ['Файл не найден'] }, 'Файл не найден'],
  ])('a file error keyed %s goes under the uploader', (_key, errors, files) => {
    expect(appealFormErrors({ message: 'Проверьте поля', errors })).toEqual({ text: undefined, files, form: undefined });
  });

  it('takes the first file key in the answer when several files are wrong', () => {
    const errors = { 'files.1': ['второй'], 'files.2': ['третий'] };
    expect(appealFormErrors({ message: 'x', errors }).files).toBe('второй');
  });

  it('does not mistake a key that merely starts like "files" for the files', () => {
    expect(appealFormErrors({ message: 'Общая ошибка', errors: { filesize: ['нет'] } })).toEqual({
      text: undefined,
      files: undefined,
      form: 'Общая ошибка',
    });
  });

  it('says both field errors and no form error when text and files are wrong', () => {
    const errors = { text: ['Опишите суть обращения'], files: ['Не больше 5 файлов'] };
    expect(appealFormErrors({ message: 'x', errors })).toEqual({ text: 'Опишите суть обращения', files: 'Не больше 5 файлов', form: undefined });
  });

  it.each([
    ['the object gone meanwhile', { object: [APPEAL_MESSAGES.objectNotFound.service] }, 'Ошибка', APPEAL_MESSAGES.objectNotFound.service],
    ['the daily limit', undefined, APPEAL_MESSAGES.tooMany, APPEAL_MESSAGES.tooMany],
    ['an empty field list', {}, APPEAL_MESSAGES.notAboutYourself, APPEAL_MESSAGES.notAboutYourself],
    ['an object field with no message', { object: [] }, 'Запасное', 'Запасное'],
  ])('%s is said above the button', (_case, errors, message, form) => {
    expect(appealFormErrors({ message, errors })).toEqual({ text: undefined, files: undefined, form });
  });
});

describe('answerError', () => {
  const exactly = 'я'.repeat(APPEAL_MIN_ANSWER);
  it.each([
    ['', APPEAL_MESSAGES.answerEmpty],
    ['   \n\t ', APPEAL_MESSAGES.answerEmpty],
    ['Ок', APPEAL_MESSAGES.answerTooShort],
    [' Сделано ', APPEAL_MESSAGES.answerTooShort],
    [exactly.slice(1), APPEAL_MESSAGES.answerTooShort],
    // Spaces around do not count towards the length.
    [`   ${exactly.slice(1)}   `, APPEAL_MESSAGES.answerTooShort],
    [exactly, null],
    [`  ${exactly}  `, null],
    ['Услуга скрыта, продавец предупреждён.', null],
  ])('%j → %j', (answer, error) => {
    expect(answerError(answer)).toBe(error);
  });
});

describe('answerRefusal', () => {
  it('puts the answer field error under the field and clears the form problem', () => {
    expect(answerRefusal({ message: 'Проверьте поля', errors: { answer: [APPEAL_MESSAGES.answerTooShort] } })).toEqual({
      answer: APPEAL_MESSAGES.answerTooShort,
      problem: null,
    });
  });
  it.each([
    [APPEAL_MESSAGES.alreadyClosed, undefined],
    [APPEAL_MESSAGES.alreadyTaken, {}],
    ['Обращение не найдено', { answer: [] }],
    ['Другая ошибка', { text: ['не про ответ'] }],
  ])('anything else (%s) is the problem above the button', (message, errors) => {
    expect(answerRefusal({ message, errors })).toEqual({ answer: null, problem: message });
  });
});

describe('foundText', () => {
  it.each([
    [0, 'Найдено: 0'],
    [1, 'Найдено: 1'],
    [9_999, 'Найдено: 9999'],
    [10_000, 'Найдено: 10000'],
    [10_001, 'Найдено: больше 10 000'],
    [250_000, 'Найдено: больше 10 000'],
  ])('%i → %s', (total, text) => {
    expect(foundText(total)).toBe(text);
  });
});
