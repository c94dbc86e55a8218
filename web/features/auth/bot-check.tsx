import { useEffect, useRef, useState } from 'react';
import { useShell } from '../../lib/use-shell.ts';

// Cloudflare's documented dummy token: what the server accepts when no Turnstile secret is configured.
export const TURNSTILE_DUMMY_TOKEN = 'XXXX.DUMMY.TOKEN.XXXX';
const SCRIPT_URL = 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit';

interface TurnstileApi {
  render(el: HTMLElement, opts: { sitekey: string; callback: (token: string) => void; 'expired-callback': () => void; language: string }): string;
  remove(id: string): void;
}
declare global {
  interface Window {
    turnstile?: TurnstileApi;
  }
}

/**
 * The registration bot check. With a site key it renders Cloudflare Turnstile; without one (development,
 * demo, tests, closed networks) a local stand-in that yields the dummy token the server then accepts.
 */
export function BotCheck({ onToken, error }: { onToken: (token: string) => void; error?: string }) {
  const { config } = useShell();
  const box = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);
  const siteKey = config.turnstileSiteKey;

  useEffect(() => {
    if (!siteKey || !box.current) return;
    let widget: string | null = null;
    const render = () => {
      if (window.turnstile && box.current) {
        widget = window.turnstile.render(box.current, {
          sitekey: siteKey,
          callback: onToken,
          'expired-callback': () => onToken(''),
          language: 'ru',
        });
      }
    };
    if (window.turnstile) render();
    else {
      const script = document.createElement('script');
      script.src = SCRIPT_URL;
      script.async = true;
      script.onload = render;
      script.onerror = () => setFailed(true);
      document.head.appendChild(script);
    }
    return () => {
      if (widget) window.turnstile?.remove(widget);
    };
  }, [siteKey, onToken]);

  return (
    <div>
      {siteKey ? (
        <div ref={box} data-testid="turnstile" />
      ) : (
        <label className="bot-check" data-testid="bot-check-stand-in">
          <input type="checkbox" onChange={(e) => onToken(e.target.checked ? TURNSTILE_DUMMY_TOKEN : '')} />
          <span>Я не робот</span>
        </label>
      )}
      {failed && <p className="field__error">Проверка на робота не загрузилась. Проверьте соединение и обновите страницу.</p>}
      {error && (
        <p className="field__error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
