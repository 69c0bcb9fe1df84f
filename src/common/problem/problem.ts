import { HttpException } from '@nestjs/common';
import { STATUS_CODES } from 'node:http';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/** One failing input field of a 400 response. */
export interface FieldError {
  readonly field: string;
  readonly message: string;
}

/** RFC 9457 problem details, as every error response of this service carries them. */
export interface ProblemDetails {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
  errors?: FieldError[];
}

/**
 * An error that already knows the response it becomes. Everything the service rejects on purpose
 * throws one of these; the problem-details filter turns anything else into a 500 or a 503.
 */
export class ProblemException extends HttpException {
  constructor(
    status: number,
    readonly detail: string,
    readonly extras: {
      readonly errors?: readonly FieldError[];
      readonly headers?: Readonly<Record<string, string>>;
      /** A problem type URI; `about:blank` means "the status code says it all" (RFC 9457 §4.2.1). */
      readonly type?: string;
      /** Extension members of the problem (RFC 9457 §3.2), such as the index of an order's line. */
      readonly members?: Readonly<Record<string, unknown>>;
    } = {},
  ) {
    super(detail, status);
  }

  get headers(): Readonly<Record<string, string>> {
    return this.extras.headers ?? {};
  }

  toProblem(instance: string): ProblemDetails {
    const status = this.getStatus();
    const problem: ProblemDetails = {
      type: this.extras.type ?? 'about:blank',
      title: statusTitle(status),
      status,
      detail: this.detail,
      instance,
    };
    if (this.extras.errors) problem.errors = [...this.extras.errors];
    return this.extras.members === undefined ? problem : { ...this.extras.members, ...problem };
  }
}

export function statusTitle(status: number): string {
  return STATUS_CODES[status] ?? 'Error';
}

export const VALIDATION_PROBLEM_TYPE = 'urn:museum:problem:validation';

/**
 * The errors a 400 lists at most: a body of 256 KiB can hold thousands of unknown keys, and the
 * answer to it stays small. The detail says how many there were.
 */
export const MAX_LISTED_ERRORS = 20;

/** A 400 naming the failing fields: each error once, the first MAX_LISTED_ERRORS of them. */
export function validationProblem(errors: readonly FieldError[]): ProblemException {
  const listed = errors.slice(0, MAX_LISTED_ERRORS);
  const fields = [...new Set(listed.map((error) => error.field))];
  const more = errors.length > listed.length ? ` (${errors.length} errors; the first ${listed.length} are listed)` : '';
  return new ProblemException(400, `The request is invalid: check ${fields.join(', ')}${more}.`, {
    errors: listed,
    type: VALIDATION_PROBLEM_TYPE,
  });
}
