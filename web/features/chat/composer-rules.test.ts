import { describe, expect, it } from 'vitest';
import { MAX_MESSAGE_FILES } from '#contract/chat-constants';
import { attachmentsOf, canSendMessage, filesThatFit, sendFailureText, sendsOnEnter } from './composer-rules.ts';

describe('filesThatFit', () => {
  const max = MAX_MESSAGE_FILES;
  it.each([
    [0, 0, 0, false],
    [0, 1, 1, false],
    [0, max, max, false],
    [0, max + 1, max, true],
    [max - 1, 1, 1, false],
    [max - 1, 3, 1, true],
    [max, 1, 0, true],
    // More attached than allowed (the limit was lowered meanwhile): nothing more, never a negative count.
    [max + 2, 1, 0, true],
    // Over the limit, any pick is told it does not fit.
    [max + 2, 0, 0, true],
  ])('%i attached, %i picked → take %i, too many: %s', (attached, picked, take, tooMany) => {
    expect(filesThatFit(attached, picked)).toEqual({ take, tooMany });
  });
});

describe('attachmentsOf', () => {
  it.each([
    [[], false, []],
    [[{}], true, []],
    [[{ url: '/u/a.png' }], false, ['/u/a.png']],
    [[{ failed: true }], false, []],
    [[{ url: '/u/a.png' }, {}, { failed: true }, { url: '/u/b.pdf' }], true, ['/u/a.png', '/u/b.pdf']],
  ])('%j → uploading %s, ready %j', (files, uploading, ready) => {
    expect(attachmentsOf(files)).toEqual({ uploading, ready });
  });
});

describe('canSendMessage', () => {
  const base = { sending: false, uploading: false, text: 'Привет', ready: 0 };
  it.each([
    [base, true],
    [{ ...base, text: '' }, false],
    [{ ...base, text: '  \n\t ' }, false],
    [{ ...base, text: '', ready: 1 }, true],
    [{ ...base, text: ' ', ready: 2 }, true],
    [{ ...base, sending: true }, false],
    [{ ...base, uploading: true }, false],
    [{ ...base, text: '', ready: 1, uploading: true }, false],
  ])('%j → %s', (state, ok) => {
    expect(canSendMessage(state)).toBe(ok);
  });
});

describe('sendFailureText', () => {
  it.each([
    [undefined, 'Не удалось создать сообщение'],
    [{ status: 500, message: 'Internal Server Error' }, 'Не удалось создать сообщение'],
    [{ status: 0, message: 'Failed to fetch' }, 'Не удалось создать сообщение'],
    [{ status: 429, message: 'Слишком много сообщений, подождите минуту' }, 'Не удалось создать сообщение. Слишком много сообщений, подождите минуту'],
    [{ status: 403, message: 'Пользователь заблокирован.' }, 'Не удалось создать сообщение. Пользователь заблокирован'],
    [{ status: 400, message: '' }, 'Не удалось создать сообщение'],
    [{ status: 399, message: 'redirect' }, 'Не удалось создать сообщение'],
  ])('%j → «%s»', (error, text) => {
    expect(sendFailureText(error)).toBe(text);
  });
});

describe('sendsOnEnter', () => {
  it.each([
    [{ key: 'Enter', shiftKey: false, isComposing: false }, true],
    [{ key: 'Enter', shiftKey: true, isComposing: false }, false],
    [{ key: 'Enter', shiftKey: false, isComposing: true }, false],
    [{ key: 'a', shiftKey: false, isComposing: false }, false],
    [{ key: 'NumpadEnter', shiftKey: false, isComposing: false }, false],
  ])('%j → %s', (e, sends) => {
    expect(sendsOnEnter(e)).toBe(sends);
  });
});
