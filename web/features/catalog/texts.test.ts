import { describe, expect, it } from 'vitest';
import { attachmentLabel, daysText, foundText, ordersDoneText, ratingText, revisionsText } from './texts.ts';

describe('catalogue texts', () => {
  it('says how many were found with Russian plural forms', () => {
    expect(foundText('services', 1)).toBe('Найдено 1\u00a0услуга');
    expect(foundText('services', 2)).toBe('Найдено 2\u00a0услуги');
    expect(foundText('services', 5)).toBe('Найдено 5\u00a0услуг');
    expect(foundText('services', 21)).toBe('Найдено 21\u00a0услуга');
    expect(foundText('projects', 0)).toBe('Найдено 0\u00a0проектов');
    expect(foundText('freelancers', 3)).toBe('Найдено 3\u00a0фрилансера');
    expect(foundText('services', 72_000, false)).toBe('Найдено около 72\u00a0000\u00a0услуг');
    expect(foundText('projects', 1_200, false)).toBe('Найдено около 1\u00a0200\u00a0проектов');
  });

  it('agrees the participle of done orders with the count (not «1 заказ выполнено»)', () => {
    expect(ordersDoneText(1)).toBe('1\u00a0заказ выполнен');
    expect(ordersDoneText(21)).toBe('21\u00a0заказ выполнен');
    expect(ordersDoneText(3)).toBe('3\u00a0заказа выполнено');
    expect(ordersDoneText(11)).toBe('11\u00a0заказов выполнено');
  });

  it('writes ratings, days and revisions', () => {
    expect(ratingText(4.85, 12)).toBe('4,9 (12\u00a0отзывов)');
    expect(ratingText(5, 1)).toBe('5,0 (1\u00a0отзыв)');
    expect(ratingText(0, 0)).toBe('Нет отзывов');
    expect(daysText(1)).toBe('1\u00a0день');
    expect(daysText(3)).toBe('3\u00a0дня');
    expect(revisionsText(0)).toBe('без правок');
    expect(revisionsText(2)).toBe('2\u00a0правки');
  });

  it('labels attachments by their number and type', () => {
    expect(attachmentLabel('/uploads/a/b.pdf', 0)).toBe('Файл 1 · PDF');
    expect(attachmentLabel('/uploads/a/b', 2)).toBe('Файл 3');
  });
});
