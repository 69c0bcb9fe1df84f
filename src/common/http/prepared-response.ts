import type { Response } from 'express';

/**
 * A complete response decided before the handler ran (a replayed idempotent response), thrown
 * from a guard so that the handler does not run; the problem-details filter sends it as it is.
 */
export class PreparedResponse extends Error {
  constructor(
    readonly status: number,
    readonly headers: Readonly<Record<string, string>>,
    /** The body exactly as first sent; empty for none. */
    readonly body: string,
  ) {
    super(`Prepared ${status} response`);
    this.name = 'PreparedResponse';
  }

  send(response: Response): void {
    response.status(this.status);
    for (const [name, value] of Object.entries(this.headers)) response.setHeader(name, value);
    if (this.body === '') {
      response.end();
      return;
    }
    // end(), not send(): send() would add or rewrite headers; the bytes must be the ones kept.
    response.setHeader('Content-Length', Buffer.byteLength(this.body, 'utf8'));
    response.end(this.body, 'utf8');
  }
}
