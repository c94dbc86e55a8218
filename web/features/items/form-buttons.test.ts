import { describe, expect, it } from 'vitest';
import { canSaveDraft, mainButtonLabel, mainButtonText } from './form-buttons.ts';

const STATES = [undefined, 'draft', 'moderation', 'active', 'rejected', 'paused', 'hidden'];

describe('canSaveDraft', () => {
  it.each([
    ['owner', undefined, true],
    ['owner', 'draft', true],
    ['owner', 'moderation', false],
    ['owner', 'active', false],
    ['owner', 'rejected', false],
    ['owner', 'paused', false],
    ['owner', 'hidden', false],
  ] as const)('%s of a service in %j: %s', (mode, status, offered) => {
    expect(canSaveDraft(mode, status)).toBe(offered);
  });
  it.each(STATES)('is never offered to an admin (%j)', (status) => {
    expect(canSaveDraft('admin', status)).toBe(false);
  });
});

describe('mainButtonLabel', () => {
  it.each([
    [undefined, 'Отправить на модерацию'],
    ['draft', 'Отправить на модерацию'],
    ['moderation', 'Сохранить'],
    ['active', 'Сохранить и отправить на модерацию'],
    ['rejected', 'Сохранить и отправить на модерацию'],
    ['paused', 'Сохранить и отправить на модерацию'],
    ['hidden', 'Сохранить и отправить на модерацию'],
  ])('the owner of a service in %j reads «%s»', (status, label) => {
    expect(mainButtonLabel('owner', status)).toBe(label);
  });
  it.each(STATES)('an admin always reads «Сохранить» (%j)', (status) => {
    expect(mainButtonLabel('admin', status)).toBe('Сохранить');
  });
});

describe('mainButtonText', () => {
  it.each([
    [null, 'owner', 'Отправить на модерацию'],
    ['publish', 'owner', 'Сохранение…'],
    // A draft's save runs on its own button: the main one keeps its words.
    ['draft', 'owner', 'Отправить на модерацию'],
    [null, 'admin', 'Отправить на модерацию'],
    ['publish', 'admin', 'Сохранение…'],
    ['draft', 'admin', 'Сохранение…'],
  ] as const)('pressed %j by the %s → «%s»', (pressed, mode, text) => {
    expect(mainButtonText(pressed, mode, 'Отправить на модерацию')).toBe(text);
  });
});
