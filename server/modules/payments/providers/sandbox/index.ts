// The built-in sandbox provider (ADR 026): the provider itself, its pages and their routes.
export { SANDBOX, SandboxProvider } from './provider.ts';
export { SandboxDesk, SANDBOX_WEBHOOK_JOB, type SandboxDeskDeps, type SandboxWebhookJob, type WebhookTransport } from './desk.ts';
export { sandboxRoutes } from './routes.ts';
