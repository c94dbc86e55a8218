import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from './paths.ts';

/**
 * The detectors of the architecture test (server/architecture.test.ts, docs/decisions/047): pure functions over
 * source text, so that a planted violation in a fixture string proves each of them, and fast (regular expressions
 * over the text, no type checking). Paths are relative to the repository's root, with forward slashes.
 */

export interface Source {
  path: string;
  text: string;
}

export interface Import {
  /** The resolved file (repository-relative) for a relative or `#contract/` import; the specifier otherwise. */
  target: string;
  /** The names it takes: `default`, `*`, or the exported names (before any `as`). Empty for a bare import. */
  names: string[];
  line: number;
}

const isTest = (file: string) => /\.test\.tsx?$/.test(file) || file.startsWith('server/test/');

/** Every .ts/.tsx file under these folders, tests and test helpers excluded, read once. */
export function readSources(...dirs: string[]): Source[] {
  return dirs.flatMap((dir) =>
    readdirSync(path.join(projectRoot, dir), { recursive: true, encoding: 'utf8' })
      .map((name) => path.posix.join(dir, name.split(path.sep).join('/')))
      .filter((file) => /\.tsx?$/.test(file) && !isTest(file))
      .map((file) => ({ path: file, text: readFileSync(path.join(projectRoot, file), 'utf8') })),
  );
}

/** The folders directly under `dir`: a module (or web feature) is a folder, whatever it holds. */
export const foldersOf = (dir: string) =>
  readdirSync(path.join(projectRoot, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();

// Statements start at the beginning of a line in this code base (one formatter); a string or a comment that looks
// like an import is not worth a parser.
const STATIC_IMPORT_RE = /^(?:import|export)\b([^;]*?)\bfrom '([^'\n]+)'/gm;
const BARE_IMPORT_RE = /^import '([^'\n]+)'/gm;
const DYNAMIC_IMPORT_RE = /\bimport\('([^'\n]+)'\)/g;

const lineAt = (text: string, index: number) => text.slice(0, index).split('\n').length;

function resolve(from: string, specifier: string): string {
  if (specifier.startsWith('.')) return path.posix.join(path.posix.dirname(from), specifier);
  if (specifier.startsWith('#contract/')) return `contract/${specifier.slice('#contract/'.length)}.ts`;
  return specifier;
}

/** `{ a, type b as c }` → a, b; `* as x` → *; `x` → default; `x, { y }` → default, y. */
function namesOf(clause: string): string[] {
  const open = clause.indexOf('{');
  const close = clause.indexOf('}', open);
  const inner = open >= 0 && close > open ? clause.slice(open + 1, close) : undefined;
  const outside = (inner === undefined ? clause : clause.slice(0, open) + clause.slice(close + 1)).replace(
    /\btype\b/g,
    '',
  );
  const names =
    inner?.split(',').map(
      (part) =>
        part
          .trim()
          .replace(/^type\s+/, '')
          .split(/\s/)[0]!,
    ) ?? [];
  if (outside.includes('*')) names.push('*');
  else if (/[\w$]/.test(outside.replace(/\bas\b/g, ''))) names.push('default');
  return names.filter(Boolean);
}

/** The imports (and re-exports) of a source, static and dynamic. */
export function importsOf(source: Source): Import[] {
  const found: Import[] = [];
  const add = (specifier: string, names: string[], index: number) =>
    found.push({ target: resolve(source.path, specifier), names, line: lineAt(source.text, index) });
  for (const m of source.text.matchAll(STATIC_IMPORT_RE)) add(m[2]!, namesOf(m[1]!), m.index);
  for (const m of source.text.matchAll(BARE_IMPORT_RE)) add(m[1]!, [], m.index);
  for (const m of source.text.matchAll(DYNAMIC_IMPORT_RE)) add(m[1]!, ['*'], m.index);
  return found;
}

/** The unit a file belongs to under `root` (`server/modules`, `web/features`): its first folder there. */
export function unitOf(root: string, file: string): string | null {
  if (!file.startsWith(`${root}/`)) return null;
  const [unit, ...rest] = file.slice(root.length + 1).split('/');
  return rest.length > 0 ? unit! : null;
}

// ---------------------------------------------------------------------------------------------------------------
// Cycles between modules
// ---------------------------------------------------------------------------------------------------------------

/**
 * Which modules each module imports (any import, a type's too: it is a dependency all the same). A table taken
 * from a shared schema file (`server/db/schema/`, `tables`) is a dependency on the module that owns it. A foreign
 * key (one `schema.ts` importing another's) is not: it is data, not code, and the only import between schemas the
 * shape allows (drizzle resolves references lazily, so it never orders the modules' loading).
 */
export function unitGraph(root: string, sources: Source[], tables: Table[] = []): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const source of sources) {
    const from = unitOf(root, source.path);
    if (!from) continue;
    const edges = graph.get(from) ?? graph.set(from, new Set()).get(from)!;
    const schema = source.path === `${root}/${from}/schema.ts`;
    for (const { target, names } of importsOf(source)) {
      if (schema && target.endsWith('/schema.ts')) continue;
      const owners = unitOf(root, target) ? [unitOf(root, target)] : names.map((n) => ownerIn(tables, target, n));
      for (const to of owners) if (to && to !== from && to !== 'platform') edges.add(to);
    }
  }
  return graph;
}

const ownerIn = (tables: Table[], file: string, name: string) =>
  tables.find((t) => t.file === file && t.name === name)?.owner;

/** The groups of modules that reach each other (strongly connected components of two or more), Tarjan's way. */
export function tangles(graph: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) visit(next);
      if (stack.includes(next)) low.set(node, Math.min(low.get(node)!, low.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const group = stack.splice(stack.indexOf(node));
    if (group.length > 1) found.push(group.sort());
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return found.sort((a, b) => a.join().localeCompare(b.join()));
}

/** The shortest path from `start` back to itself, as `a → b → a` (a tangle's member is on one). */
export function shortestCycle(graph: Map<string, Set<string>>, start: string): string {
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const node = queue[i]!;
    for (const next of graph.get(node) ?? []) {
      if (next === start) {
        const cycle = [node];
        while (cycle[0] !== start) cycle.unshift(cameFrom.get(cycle[0]!)!);
        return [...cycle, start].join(' → ');
      }
      if (cameFrom.has(next)) continue;
      cameFrom.set(next, node);
      queue.push(next);
    }
  }
  return `${start} (on no cycle)`;
}

/**
 * Module folders that the list of modules (`MODULES` in server/modules/index.ts, which app.ts mounts in one loop)
 * leaves out, and manifests (`defineModule` in a module's `module.ts`) not named as their folder.
 */
export function unlistedModules(sources: Source[], folders: string[]): string[] {
  const list = sources.find((s) => s.path === 'server/modules/index.ts');
  if (!list) return ['server/modules/index.ts (the list of modules) not found'];
  const moduleOf = new Map(
    importsOf(list).flatMap(({ target, names }) =>
      names.map((name) => [name, unitOf('server/modules', target)] as const),
    ),
  );
  const listed = /\bMODULES\b[^=]*=\s*\[([^\]]*)\]/.exec(list.text)?.[1] ?? '';
  const mounted = new Set([...listed.matchAll(/[\w$]+/g)].map((m) => moduleOf.get(m[0])));
  const problems = folders.filter((f) => !mounted.has(f)).map((f) => `${f}: not in MODULES (server/modules/index.ts)`);
  for (const folder of folders) {
    const manifest = sources.find((s) => s.path === `server/modules/${folder}/module.ts`)?.text ?? '';
    const name = /\bdefineModule\(\{\s*name: '([^'\n]+)'/.exec(manifest)?.[1];
    if (name !== folder) problems.push(`${folder}: no defineModule({ name: '${folder}', … }) in its module.ts`);
  }
  return problems;
}

/** The layers under the modules and features (ADR 017): they serve every one of them, so none may import one. */
const LAYERS_BELOW: Record<string, string[]> = {
  'server/modules/': ['server/platform/', 'server/lib/', 'server/realtime/'],
  'web/features/': ['web/lib/', 'web/components/'],
};

/** Imports of a module or feature (any of its files) from the layers under them, as `file:line → target`. */
export function importsIntoModules(sources: Source[]): string[] {
  return sources.flatMap((s) => {
    const units = Object.keys(LAYERS_BELOW).find((dir) => LAYERS_BELOW[dir]!.some((below) => s.path.startsWith(below)));
    if (!units) return [];
    return importsOf(s)
      .filter(({ target }) => target.startsWith(units))
      .map(({ target, line }) => `${s.path}:${line} → ${target}`);
  });
}

/**
 * Imports of the server's code from the web app, as `file:line → target`. Pages may be rendered in a worker thread
 * (ADR 077): what a loader needs of the server goes through the load context (contract/ssr.ts), never an import, which
 * would run a second copy of the server's state in that thread.
 */
export function serverImportsInWeb(sources: Source[]): string[] {
  return sources
    .filter((s) => s.path.startsWith('web/'))
    .flatMap((s) => importsOf(s).filter(({ target }) => target.startsWith('server/')).map(({ target, line }) => `${s.path}:${line} → ${target}`));
}

/**
 * Reads of a request's address in the web app, as `file:line`. React Router hands a loader the request as it came
 * (ADR 086): a data request's address ends in `.data` and carries `_routes`, so a loader reads its page's address from
 * its `url` argument. Only the document's entry reads the request's, which is the page's own.
 */
export function requestUrlsInWeb(sources: Source[]): string[] {
  return sources
    .filter((s) => s.path.startsWith('web/') && s.path !== 'web/entry.server.tsx')
    .flatMap((s) => [...s.text.matchAll(/\brequest\.url\b/g)].map((m) => `${s.path}:${lineAt(s.text, m.index)}`));
}

// ---------------------------------------------------------------------------------------------------------------
// Foreign tables
// ---------------------------------------------------------------------------------------------------------------

/** A table as a schema file declares it (`export const name = pgTable('sql_name', …)`), with its owner. */
export interface Table {
  file: string;
  name: string;
  sqlName: string;
  /** A module's name, `platform`, or undefined when nobody is said to own it. */
  owner: string | undefined;
}

/** Who owns a table of a shared schema file (`server/db/schema/`): a module's name, or `platform`. */
export type OwnerOf = (file: string, table: string) => string | undefined;

const TABLE_RE = /^export const ([\w$]+) = pgTable\(\s*'([^'\n]+)'/gm;

/** Every table declared in these sources; a module's `schema.ts` holds its own, `server/platform/` the platform's. */
export function tablesIn(sources: Source[], ownerOf: OwnerOf): Table[] {
  return sources.flatMap((s) =>
    [...s.text.matchAll(TABLE_RE)].map((m) => ({
      file: s.path,
      name: m[1]!,
      sqlName: m[2]!,
      owner:
        unitOf('server/modules', s.path) ??
        (s.path.startsWith('server/platform/') ? 'platform' : ownerOf(s.path, m[1]!)),
    })),
  );
}

const SQL_RE = /\bsql(?:<[^`]*>)?`([^`]*)`/g;
const SQL_TABLE_RE = /\b(?:from|join|update|into)\s+"?([a-z_]+)/gi;

/**
 * The tables each module takes from another owner, as `module → table (owner)`, each pair once. A table is
 * reached by importing its name from a file that declares it (a shared `server/db/schema/` file, another module's
 * `schema.ts`) or from another module's face that passes it on, or by its name in raw SQL (`module → "sql_name"
 * (owner)`). A module's own `schema.ts` may import another's table for a foreign key.
 */
export function foreignTables(sources: Source[], ownerOf: OwnerOf): string[] {
  const tables = tablesIn(sources, ownerOf);
  const bySqlName = new Map(tables.map((t) => [t.sqlName, t]));
  const pairs = new Set<string>();
  for (const source of sources) {
    const module = unitOf('server/modules', source.path);
    if (!module || source.path === `server/modules/${module}/schema.ts`) continue;
    const take = (table: Table | undefined, shown: string) => {
      if (table && table.owner !== module) pairs.add(`${module} → ${shown} (${table.owner ?? 'no owner'})`);
    };
    for (const { target, names } of importsOf(source)) {
      const targetModule = unitOf('server/modules', target);
      if (targetModule === module) continue;
      const offered = tables.filter((t) => (targetModule ? t.owner === targetModule : t.file === target));
      for (const name of names)
        take(
          offered.find((t) => t.name === name),
          name,
        );
    }
    for (const [, query] of source.text.matchAll(SQL_RE)) {
      for (const [, sqlName] of query!.matchAll(SQL_TABLE_RE)) take(bySqlName.get(sqlName!), `"${sqlName}"`);
    }
  }
  return [...pairs].sort();
}

// ---------------------------------------------------------------------------------------------------------------
// Transactions, jobs, routes
// ---------------------------------------------------------------------------------------------------------------

/** Where a transaction is opened outside the platform (`server/platform/`) and the database layer (`server/db/`). */
export function transactionsOutsidePlatform(sources: Source[]): string[] {
  return sources
    .filter((s) => !s.path.startsWith('server/platform/') && !s.path.startsWith('server/db/'))
    .flatMap((s) => [...s.text.matchAll(/\.transaction\(/g)].map((m) => `${s.path}:${lineAt(s.text, m.index)}`));
}

const NAME = String.raw`([\w$.]+|'[^'\n]*')`;
/** A job written to the outbox (`outbox.job(NAME, …)`), or a recurring one run now (`dispatcher.trigger(NAME)`). */
const ENQUEUE_RE = new RegExp(String.raw`\.(?:job|trigger)\(\s*${NAME}`, 'g');
/**
 * How a job gets its handler: `dispatcher.handle(NAME, …)` (generic or not) in a manifest's `subscribe`,
 * `dispatcher.every(NAME, …)`, a manifest's recurring job (`{ job: NAME, everyMs, run }`), or a handler map keyed
 * by the job's name (`{ [NAME]: handler }`).
 */
const HANDLER_RES = [
  new RegExp(String.raw`\.(?:handle|every)\s*(?:<[^()]*>)?\(\s*${NAME}`, 'g'),
  new RegExp(String.raw`\bjob:\s*${NAME}`, 'g'),
  new RegExp(String.raw`\[\s*${NAME}\s*\]\s*:`, 'g'),
];
const CONSTANT_RE = /\bconst ([A-Z][A-Z0-9_]*) = '([^'\n]*)'/g;

/** The jobs written to the outbox (`outbox.job(NAME, …)`) that no handler is registered for. */
export function unhandledJobs(sources: Source[]): string[] {
  const constants = new Map<string, string>();
  for (const s of sources) for (const m of s.text.matchAll(CONSTANT_RE)) constants.set(m[1]!, `'${m[2]}'`);
  const valueOf = (name: string) => constants.get(name) ?? name;
  const handled = new Set(
    sources.flatMap((s) => HANDLER_RES.flatMap((re) => [...s.text.matchAll(re)].map((m) => valueOf(m[1]!)))),
  );
  const missing = new Set<string>();
  for (const s of sources) {
    for (const m of s.text.matchAll(ENQUEUE_RE)) {
      if (!handled.has(valueOf(m[1]!))) missing.add(`${m[1]} (${s.path}:${lineAt(s.text, m.index)})`);
    }
  }
  return [...missing];
}

/** The outbox's kinds (`OUTBOX_KINDS = [...]`) that the dispatcher's `execute` has no `case` for. */
export function kindsWithoutTransport(sources: Source[]): string[] {
  const declared = sources.map((s) => /OUTBOX_KINDS = \[([^\]]*)\]/.exec(s.text)?.[1]).find(Boolean);
  const dispatcher = sources.find((s) => /^export class Dispatcher\b/m.test(s.text));
  if (!declared || !dispatcher) return ['OUTBOX_KINDS or the Dispatcher class not found'];
  const kinds = [...declared.matchAll(/'([^']+)'/g)].map((m) => m[1]!);
  return kinds.filter((kind) => !dispatcher.text.includes(`case '${kind}':`));
}

/** An endpoint as the contract declares it: its route (`GET /api/…`) and its guard. */
export interface DeclaredEndpoint {
  name: string;
  route: string;
  access: unknown;
}

const ACCESS = ['public', 'user', 'confirmed', 'admin'];

/** Endpoints with no (or an unknown) guard, and `/api/admin` endpoints whose guard is not `admin`. */
export function undeclaredAccess(endpoints: DeclaredEndpoint[]): string[] {
  return endpoints.flatMap(({ name, route, access }) => {
    if (typeof access !== 'string' || !ACCESS.includes(access)) return [`${name} (${route}): no access declared`];
    const adminArea = /^[A-Z]+ \/api\/admin(\/|$)/.test(route);
    return adminArea && access !== 'admin' ? [`${name} (${route}): in the admin area with access '${access}'`] : [];
  });
}

const DIRECT_ROUTE_RE = /\.(?:get|post|put|patch|delete|all)\(\s*'(\/api[^'\n]*)'|\burl: '(\/api[^'\n]*)'/g;

/** API paths registered on Fastify directly, around the endpoint table (and so around its guards). */
export function routesOutsideTable(sources: Source[]): string[] {
  return sources.flatMap((s) =>
    [...s.text.matchAll(DIRECT_ROUTE_RE)].map((m) => `${m[1] ?? m[2]} (${s.path}:${lineAt(s.text, m.index)})`),
  );
}
