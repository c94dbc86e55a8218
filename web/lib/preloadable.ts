import { createElement, lazy, useState, type ComponentType } from 'react';

/**
 * `React.lazy` whose code can be fetched ahead of its first render: `Part.load()`. Once loaded, the part renders at
 * once. React.lazy alone suspends on its first render even when its module is already there (its promise resolves a
 * microtask later), so its fallback would show for a frame and the page would shift under the pointer.
 */
export function preloadable<P extends object>(factory: () => Promise<{ default: ComponentType<P> }>) {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  const load = () =>
    (loading ??= factory().then(
      (m) => (loaded = m.default),
      (error: unknown) => {
        loading = undefined; // a later render or load tries again
        throw error;
      },
    ));
  const Lazy = lazy(() => load().then((component) => ({ default: component })));
  const Part = (props: P) => {
    // Each instance keeps the type it began with: one that began lazy and switched to the loaded component when it
    // came would be mounted anew, and lose what the person had chosen in it.
    const [type] = useState<ComponentType<P>>(() => loaded ?? Lazy);
    return createElement(type, props);
  };
  return Object.assign(Part, { load });
}
