/** A Request whose `signal` is the one given, as it is: no signal of undici's own following it (page-request.mjs). */
export class PageRequest extends Request {
  constructor(url: string, init: { method: string; headers: HeadersInit }, signal: AbortSignal);
  get signal(): AbortSignal;
}
