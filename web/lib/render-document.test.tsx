import { Writable } from 'node:stream';
import { Suspense, use, useId, type ReactNode } from 'react';
import { renderToPipeableStream as renderWithNodeBuild } from 'react-dom/server.node';
import { describe, expect, it, vi } from 'vitest';
import { renderDocument } from './render-document.ts';

// renderDocument renders with React's Bun build (ADR 080). Its documents must be the Node build's, byte for byte,
// for what our pages do: a suspended part ended later (React Router's stream transfer), hoisted stylesheets, nonces,
// ids, Cyrillic and emoji across the Node build's 4 KiB views, a part that fails, a render aborted.

const NONCE = 'bm9uY2U';

/** Vitest runs React's development builds, whose error templates carry stacks through each build's own file. */
const withoutStacks = (html: Buffer) => html.toString().replace(/ data-c?stck="[^"]*"/g, '');

/** The reference: React's Node build, collected whole as entry.server.tsx did before ADR 080. */
function viaNodeBuild(element: ReactNode, timeoutMs = 5_000): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const { pipe, abort } = renderWithNodeBuild(element, {
      nonce: NONCE,
      progressiveChunkSize: Number.POSITIVE_INFINITY,
      onAllReady() {
        const body = new Writable({
          write(chunk: Buffer, _encoding, done) {
            chunks.push(chunk);
            done();
          },
        });
        body.on('finish', () => {
          clearTimeout(timeout);
          resolve(Buffer.concat(chunks));
        });
        pipe(body);
      },
      onShellError: reject,
      onError() {},
    });
    const timeout = setTimeout(abort, timeoutMs);
  });
}

function Later({ promise }: { promise: Promise<string> }) {
  const text = use(promise);
  return <script nonce={NONCE} dangerouslySetInnerHTML={{ __html: `window.later=${JSON.stringify(text)}` }} />;
}

function Card({ index }: { index: number }) {
  const id = useId();
  return (
    <article aria-labelledby={id} className="card" data-index={index}>
      <h3 id={id}>
        Оформлю презентацию «{index}» — 🎨 {'<&>"'}
      </h3>
      <a href={`/services/design/${index}?q=лого&sort=new`}>Подробнее</a>
      <p>{'Текст описания услуги. '.repeat(index % 7)}</p>
    </article>
  );
}

function Page({ later, failing, never }: { later?: Promise<string>; failing?: boolean; never?: Promise<string> }) {
  return (
    <html lang="ru">
      <head>
        <meta charSet="utf-8" />
        <title>Подряд — биржа услуг</title>
      </head>
      <body>
        <link rel="stylesheet" href="/assets/page.css" precedence="default" />
        <main>
          {Array.from({ length: 80 }, (_, index) => (
            <Card key={index} index={index} />
          ))}
          {/* One text longer than the Node build's 4 KiB view, of two- and four-byte characters. */}
          <p>{'Привет, мир! 👋 '.repeat(400)}</p>
        </main>
        {later && (
          <Suspense fallback={null}>
            <Later promise={later} />
          </Suspense>
        )}
        {failing && (
          <Suspense fallback={<p>Загрузка…</p>}>
            <Failing />
          </Suspense>
        )}
        {never && (
          <Suspense fallback={<p>Ждём…</p>}>
            <Later promise={never} />
          </Suspense>
        )}
      </body>
    </html>
  );
}

function Failing(): ReactNode {
  throw new Error('a part failed');
}

const quiet = { nonce: NONCE, timeoutMs: 5_000, onError() {} };
const laterPromise = () => new Promise<string>((resolve) => setTimeout(resolve, 5, 'готово </script>'));

describe('renderDocument()', () => {
  it("writes the Node build's document byte for byte: a part ended later, hoisted styles, ids, nonces, multibyte text", async () => {
    const ours = await renderDocument(<Page later={laterPromise()} />, quiet);
    const reference = await viaNodeBuild(<Page later={laterPromise()} />);
    expect(ours.length).toBeGreaterThan(20_000);
    expect(ours.toString()).toContain('<link rel="stylesheet" href="/assets/page.css" data-precedence="default"/>');
    expect(ours.toString()).toContain('Привет, мир! 👋');
    expect(ours.toString()).toContain(`nonce="${NONCE}"`);
    expect(ours.equals(reference)).toBe(true);
  });

  it('leaves a failed part to the browser, tells onError, and still matches the Node build', async () => {
    const onError = vi.fn();
    const ours = await renderDocument(<Page failing />, { ...quiet, onError });
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ message: 'a part failed' }), expect.anything());
    expect(ours.toString()).toContain('<!--$!-->');
    expect(withoutStacks(ours)).toBe(withoutStacks(await viaNodeBuild(<Page failing />)));
  });

  it('aborts a part that never ends at timeoutMs: the fallback is sent, as the Node build sends it', async () => {
    // React's development builds warn of the aborted task, both of them.
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const onError = vi.fn();
    const ours = await renderDocument(<Page never={new Promise(() => {})} />, { ...quiet, timeoutMs: 50, onError });
    expect(onError).toHaveBeenCalled();
    expect(ours.toString()).toContain('Ждём…');
    expect(withoutStacks(ours)).toBe(withoutStacks(await viaNodeBuild(<Page never={new Promise(() => {})} />, 50)));
    vi.restoreAllMocks();
  });

  it('rejects when the shell fails', async () => {
    await expect(renderDocument(<Failing />, quiet)).rejects.toThrow('a part failed');
  });
});
