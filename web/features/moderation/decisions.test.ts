import { describe, expect, it } from 'vitest';
import { moderationActions, type ItemKind, type ModerationAction } from '../items/index.ts';
import {
  ACTION_LABELS,
  ACTION_ORDER,
  decisionBody,
  doneText,
  needsReason,
  REASON_MIN,
  reasonDialog,
  reasonProblem,
  refusalStaysInDialog,
  refusalText,
} from './decisions.ts';

const ACTIONS: ModerationAction[] = ['approve', 'reject', 'hide', 'restore'];
const KINDS: ItemKind[] = ['service', 'project'];

describe('the decisions in words', () => {
  it('label and order every decision once', () => {
    expect([...ACTION_ORDER].sort()).toEqual([...ACTIONS].sort());
    expect(Object.keys(ACTION_LABELS).sort()).toEqual([...ACTIONS].sort());
  });

  it.each([
    ['service', 'approve', 'Услуга одобрена и опубликована'],
    ['service', 'reject', 'Услуга отклонена'],
    ['service', 'hide', 'Услуга скрыта'],
    ['service', 'restore', 'Услуга восстановлена'],
    ['project', 'approve', 'Проект опубликован'],
    ['project', 'reject', 'Проект отклонён'],
    ['project', 'hide', 'Проект скрыт'],
    ['project', 'restore', 'Проект восстановлен'],
  ] as const)('%s %s → «%s»', (kind, action, text) => {
    expect(doneText(kind, action)).toBe(text);
  });
});

describe('needsReason', () => {
  it.each([
    ['approve', false],
    ['restore', false],
    ['reject', true],
    ['hide', true],
  ] as const)('%s → %s', (action, asks) => {
    expect(needsReason(action)).toBe(asks);
  });
});

describe('decisionBody', () => {
  it.each([
    ['approve', undefined, { status: 'active' }],
    ['restore', undefined, { status: 'active' }],
    ['reject', 'Контакты в описании', { status: 'rejected', reason: 'Контакты в описании' }],
    ['hide', 'Спам', { status: 'hidden', reason: 'Спам' }],
    // An empty reason is not sent at all (the server would refuse "").
    ['hide', '', { status: 'hidden' }],
    ['approve', 'лишнее', { status: 'active', reason: 'лишнее' }],
  ] as const)('%s with %j → %j', (action, reason, body) => {
    expect(decisionBody(action, reason)).toEqual(body);
  });

  it('never sets "rejected" for a decision a project can be offered', () => {
    const offered = new Set(['active', 'in_progress', 'closed', 'archived', 'hidden'].flatMap((s) => moderationActions('project', s)));
    for (const action of offered) expect(decisionBody(action).status).not.toBe('rejected');
  });
});

describe('reasonDialog', () => {
  it.each(KINDS)('a rejection of a %s says it returns to the owner', (kind) => {
    const d = reasonDialog(kind, 'reject', 'Логотип');
    expect(d.title).toBe(kind === 'service' ? 'Отклонить услугу?' : 'Отклонить проект?');
    expect(d.text).toBe('«Логотип» вернётся владельцу. Причину он увидит в письме и в личном кабинете, исправит и отправит снова.');
    expect(d.confirm).toBe('Отклонить');
  });
  it.each(KINDS)('hiding a %s says it leaves the catalogue', (kind) => {
    const d = reasonDialog(kind, 'hide', 'Сайт под ключ');
    expect(d.title).toBe(kind === 'service' ? 'Скрыть услугу?' : 'Скрыть проект?');
    expect(d.text).toBe('«Сайт под ключ» пропадёт из каталога и поиска. Владелец увидит причину в письме и в личном кабинете.');
    expect(d.confirm).toBe('Скрыть');
  });
});

describe('refusals', () => {
  it.each([
    [{ errors: { reason: ['Причина — до 500 символов'] } }, 'слишком длинная', true],
    [{ errors: { reason: ['x'] } }, undefined, false],
    [{ errors: { reason: ['x'] } }, '', false],
    [{ errors: { status: ['x'] } }, 'причина', false],
    [{}, 'причина', false],
  ])('%j with reason %j stays in the dialog: %s', (error, reason, stays) => {
    expect(refusalStaysInDialog(error, reason)).toBe(stays);
  });

  it('says the reason’s own error, else the message', () => {
    expect(refusalText({ message: 'Проверьте поля', errors: { reason: ['Слишком коротко', 'ещё'] } })).toBe('Слишком коротко');
    expect(refusalText({ message: 'Услуга уже скрыта', errors: {} })).toBe('Услуга уже скрыта');
    expect(refusalText({ message: 'Нет доступа' })).toBe('Нет доступа');
  });
});

describe('reasonProblem', () => {
  it.each([
    ['', false],
    ['  ', false],
    ['ок', false],
    [' ок ', false],
    ['спам', true],
    ['   спам   ', true],
    ['x'.repeat(REASON_MIN), true],
  ])('%j may be sent: %s', (reason, ok) => {
    expect(reasonProblem(reason) === null).toBe(ok);
  });
  it('says what to do', () => {
    expect(reasonProblem('')).toBe('Укажите причину: хотя бы несколько слов');
  });
});
