import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { Unsubscribe } from './unsubscribe.tsx';

describe('Unsubscribe', () => {
  it('says why a bad link cannot unsubscribe, with no button', () => {
    const html = renderToStaticMarkup(<Unsubscribe data={{ token: null, error: 'Ссылка устарела' }} />);
    expect(html).toBe('<p class="form-error" data-testid="unsubscribe-error">Ссылка устарела</p>');
  });

  it('asks before switching the letters off, naming them', () => {
    const html = renderToStaticMarkup(<Unsubscribe data={{ token: 't', kind: 'chat', title: 'Новые сообщения' }} />);
    expect(html).toContain('Отписаться от писем «Новые сообщения»? Уведомления на сайте останутся.');
    expect(html).toContain('<button type="button" class="btn btn--primary">Отписаться</button>');
    expect(html).not.toContain('form-error');
    expect(html).not.toContain('unsubscribe-done');
  });
});
