// How production-builds.mjs changes a function of React Router's production build as it loads (ADRs 074 and 079):
// the declaration is renamed and the name bound, at the module's end, to a wrapper around it. Every call in the
// module, its own recursive calls included, then goes through the wrapper. The functions wrapped are called only
// while a page renders, after the module has run, so the binding is in place by then.

/** How many times `function name(` is declared in a module's text. */
export function declarations(source, name) {
  const declaration = `function ${name}(`;
  let count = 0;
  for (let at = source.indexOf(declaration); at >= 0; at = source.indexOf(declaration, at + 1)) count++;
  return count;
}

/**
 * The module's text with `function name(` renamed `nameEveryTime` and `name` bound to `wrapper(nameEveryTime)`,
 * `wrapper` being the export of that name of the module at `wrapperUrl`. Both are exported as `__name` and
 * `__nameEveryTime`, for the tests that compare them. A text that does not declare the function exactly once (another
 * version of React Router) is returned as it was; the tests count the files rewritten, so an upgrade is noticed.
 */
export function wrapDeclaration(source, name, wrapperUrl, wrapper) {
  if (declarations(source, name) !== 1) return source;
  const declaration = `function ${name}(`;
  const at = source.indexOf(declaration);
  return (
    `import { ${wrapper} as __${wrapper} } from ${JSON.stringify(wrapperUrl)};\n` +
    source.slice(0, at) +
    `function ${name}EveryTime(` +
    source.slice(at + declaration.length) +
    `\nvar ${name} = __${wrapper}(${name}EveryTime);\n` +
    `export { ${name} as __${name}, ${name}EveryTime as __${name}EveryTime };\n`
  );
}
