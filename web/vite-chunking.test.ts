import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { markRouterObjectsPure } from '../vite.chunking.ts';

// The browser's build marks React Router's module-level components and contexts pure (vite.chunking.ts, issue 31):
// without it <Form>, <NavLink> and their code (1.8 KiB gzip) are in every page though the app uses neither.
describe('markRouterObjectsPure', () => {
  it('marks forwardRef and createContext objects pure and drops their display names, nothing else', () => {
    const code = [
      'var Form = React10.forwardRef(',
      '  function FormImpl() {}',
      ');',
      'Form.displayName = "Form";',
      'var AwaitContext = React.createContext(null);',
      'AwaitContext.displayName = "Await";',
      'function ScrollRestoration() {}',
      'ScrollRestoration.displayName = "ScrollRestoration";',
      '  let Inner = React10.forwardRef(() => null);',
    ].join('\n');
    expect(markRouterObjectsPure(code).split('\n')).toEqual([
      'var Form = /* @__PURE__ */ React10.forwardRef(',
      '  function FormImpl() {}',
      ');',
      '',
      'var AwaitContext = /* @__PURE__ */ React.createContext(null);',
      '',
      'function ScrollRestoration() {}',
      'ScrollRestoration.displayName = "ScrollRestoration";',
      '  let Inner = React10.forwardRef(() => null);',
    ]);
  });

  it('finds <Form> and <NavLink> in the installed React Router', () => {
    const dist = path.resolve(import.meta.dirname, '../node_modules/react-router/dist/production');
    const code = readdirSync(dist)
      .filter((name) => name.endsWith('.mjs'))
      .map((name) => readFileSync(path.join(dist, name), 'utf8'))
      .join('\n');
    const marked = markRouterObjectsPure(code);
    for (const name of ['Form', 'NavLink', 'Link']) {
      expect(marked).toMatch(new RegExp(`^var ${name} = /\\* @__PURE__ \\*/ React\\d*\\.forwardRef\\(`, 'm'));
      expect(marked).not.toContain(`${name}.displayName =`);
    }
  });
});
