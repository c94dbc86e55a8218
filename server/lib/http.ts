import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ApiError, ApiOk } from '#contract/api';
import { MESSAGES } from '#contract/messages';

/** The path the router matches: decoded, without the query (so that `/%70rofile` is the profile too). */
export function decodedPath(url: string): string {
  const query = url.indexOf('?');
  const path = query < 0 ? url : url.slice(0, query);
  // Asked several times per request (the hooks, the pages): most paths have nothing to decode.
  if (!path.includes('%')) return path;
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/** An error whose message is meant for the user (Russian) and whose status is a 4xx. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly errors?: Record<string, string[]>,
    /** A stable machine code for the client (ADR 054), sent next to the message. */
    readonly code?: string,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, errors?: Record<string, string[]>) => new HttpError(400, message, errors);
export const unauthorized = (message: string = MESSAGES.unauthorized) => new HttpError(401, message);
export const forbidden = (message: string = MESSAGES.forbidden) => new HttpError(403, message);
export const notFound = (message: string = MESSAGES.notFound) => new HttpError(404, message);

export function ok<T>(result: T, total?: number): ApiOk<T> {
  return total === undefined ? { status: 200, result } : { status: 200, result, total };
}

/**
 * PostgreSQL's data exceptions caused by a value a client sent: too long (22001), a number out of range
 * (22003), a bad date (22007, 22008), broken UTF-8 or a NUL (22021), text that is not of the type, e.g. a lone
 * surrogate in jsonb or a malformed uuid (22P02), an unsupported Unicode escape (22P05).
 */
const CLIENT_DATA_ERRORS = new Set(['22001', '22003', '22007', '22008', '22021', '22P02', '22P05']);

/**
 * A service behind the app going away under a request (issue 29): PostgreSQL terminating the connection (57P01
 * admin shutdown, 57P02 crash shutdown, 57P03 cannot connect now), any connection exception (class 08), or the
 * socket to it or to the file storage (S3) refused, reset or timed out. The request did not happen, or its
 * transaction rolled back: the client may try again (with the same Idempotency-Key), so the answer is 503, not 500.
 */
const UNAVAILABLE_CODES = new Set(['57P01', '57P02', '57P03', 'ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH']);
const UNAVAILABLE_TEXTS = ['Connection terminated', 'connection error and is not queryable', 'timeout exceeded when trying to connect', 'Client was closed and is not queryable'];

export function isBackendUnavailable(error: unknown): boolean {
  // Drizzle wraps the driver's error in its own (cause); a few levels are enough.
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
    if (typeof message === 'string' && UNAVAILABLE_TEXTS.some((text) => message.includes(text))) return true;
  }
  return false;
}

/** Every failure leaves as SPEC's `{ status, message, errors? }`; only unexpected ones are 500 and logged. */
export function installErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const send = (body: ApiError) => reply.status(body.status).send(body);

    if (error instanceof HttpError) {
      return send({ status: error.statusCode, message: error.message, errors: error.errors, ...(error.code ? { code: error.code } : {}) });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors: Record<string, string[]> = {};
      for (const issue of error.validation) {
        const zodPath = (issue.params as { issue?: { path?: PropertyKey[] } }).issue?.path ?? [];
        const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || zodPath.map(String).join('.') || '_';
        (errors[field] ??= []).push(issue.message ?? MESSAGES.validation);
      }
      return send({ status: 400, message: MESSAGES.validation, errors });
    }
    // PostgreSQL refusing a value it cannot store or read is the client's mistake. Logged all the same: the
    // schema in front of the query should have refused the value first.
    const pgCode = (error as { code?: string; cause?: { code?: string } }).cause?.code ?? (error as { code?: string }).code;
    if (pgCode && CLIENT_DATA_ERRORS.has(pgCode)) {
      request.log.warn({ err: error }, 'value refused by the database');
      return send({ status: 400, message: MESSAGES.validation });
    }
    if (isBackendUnavailable(error)) {
      request.log.warn({ err: error }, 'a backing service is unavailable');
      return send({ status: 503, message: MESSAGES.unavailable });
    }
    const status = error.statusCode ?? 500;
    if (status === 429) return send({ status, message: MESSAGES.tooManyRequests });
    if (status === 413) return send({ status, message: MESSAGES.payloadTooLarge });
    if (status >= 400 && status < 500) {
      // Fastify's own client errors (bad JSON, wrong content type, …) come in English.
      return send({ status, message: MESSAGES.validation });
    }
    request.log.error({ err: error }, 'unhandled error');
    return send({ status: 500, message: MESSAGES.internal });
  });

  app.setNotFoundHandler((request, reply) => {
    reply.status(404).send({ status: 404, message: MESSAGES.notFound } satisfies ApiError);
  });
}
