import type { FastifyPluginAsync } from 'fastify';

/** The OpenAPI document (generated from the routes' zod schemas) as JSON and as a readable page. */
export const docsRoutes: FastifyPluginAsync<{ brand: string }> = async (app, { brand }) => {
  app.get('/api/docs/json', { schema: { hide: true } }, async () => app.swagger());

  app.get('/api/docs', { schema: { hide: true } }, async (request, reply) => {
    if (!request.headers.accept?.includes('text/html')) return app.swagger();
    const doc = app.swagger() as { paths?: Record<string, Record<string, { summary?: string; tags?: string[]; security?: unknown[] }>> };
    const esc = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
    const rows = Object.entries(doc.paths ?? {})
      .flatMap(([path, ops]) =>
        Object.entries(ops).map(
          ([method, op]) =>
            `<tr><td><code>${method.toUpperCase()}</code></td><td><code>${esc(path)}</code></td><td>${esc((op.tags ?? []).join(', '))}</td><td>${op.security ? 'токен' : '—'}</td></tr>`,
        ),
      )
      .join('');
    reply.type('text/html; charset=utf-8');
    return `<!doctype html><html lang="ru"><head><meta charset="utf-8"><title>API - ${esc(brand)}</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:960px;margin:2rem auto;padding:0 1rem}table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:.4rem;text-align:left}</style>
</head><body><h1>API ${esc(brand)}</h1><p>Машиночитаемое описание OpenAPI: <a href="/api/docs/json">/api/docs/json</a>. Ответы: <code>{ status, result, total? }</code>, ошибки: <code>{ status, message, errors? }</code>.</p>
<table><thead><tr><th>Метод</th><th>Путь</th><th>Раздел</th><th>Доступ</th></tr></thead><tbody>${rows}</tbody></table></body></html>`;
  });
};
