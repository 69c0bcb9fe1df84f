import type { ProblemResponse } from './api-problem-responses.js';
import { type FieldError, ProblemException, VALIDATION_PROBLEM_TYPE, validationProblem } from './problem.js';
import type { ProblemTranslator } from './problem-translator.js';

/** How a feature answers one reason of refusal, and how the API description words it. */
export interface ProblemAnswer<Facts> {
  readonly status: number;
  /** The problem type URI; none is `about:blank`: the status says it all (RFC 9457 §4.2.1). */
  readonly type?: string;
  readonly detail: (facts: Facts) => string;
  readonly headers?: (facts: Facts) => Readonly<Record<string, string>>;
  /** Extension members of the problem (RFC 9457 §3.2) beside the standard ones. */
  readonly members?: (facts: Facts) => Readonly<Record<string, unknown>>;
  /** When this is the answer: one sentence, for the OpenAPI document and docs/api.md. */
  readonly when: string;
  /** Facts for the OpenAPI example of this answer. */
  readonly example: Facts;
}

/** A 400 naming the failing fields: a validation problem, with its own type and detail. */
export interface InvalidFieldsAnswer<Facts> {
  readonly status: 400;
  readonly errors: (facts: Facts) => readonly FieldError[];
  readonly when: string;
  readonly example: Facts;
}

export type ProblemAnswers<Reasons> = {
  readonly [R in keyof Reasons & string]: ProblemAnswer<Reasons[R]> | InvalidFieldsAnswer<Reasons[R]>;
};

/** What a feature's refusal carries (domain/refusal.ts), seen from here: a reason and its facts. */
interface Refused {
  readonly reason: string;
  readonly facts: unknown;
}

/** A row of the table docs/api.md lists (test/problem-reasons.e2e-spec.ts keeps it current). */
export interface ProblemReasonRow {
  readonly feature: string;
  readonly reason: string;
  readonly status: number;
  readonly type: string;
  readonly when: string;
}

/**
 * A feature's refusals mapped to HTTP, in one place: the problem-details filter answers with it
 * (`translate`, registered through ProblemTranslators) and the controller's decorators document
 * with it (`response`), so each reason's status, type and wording is written once.
 */
export class ProblemCatalog<Reasons extends object> {
  constructor(
    readonly feature: string,
    private readonly refusal: abstract new (...args: never[]) => Refused,
    private readonly answers: ProblemAnswers<Reasons>,
  ) {}

  readonly translate: ProblemTranslator = (error) =>
    error instanceof this.refusal
      ? this.problem(error.reason as keyof Reasons & string, error.facts as Reasons[keyof Reasons & string])
      : undefined;

  problem<R extends keyof Reasons & string>(reason: R, facts: Reasons[R]): ProblemException {
    const answer = this.answers[reason];
    if ('errors' in answer) return validationProblem(answer.errors(facts));
    return new ProblemException(answer.status, answer.detail(facts), {
      ...(answer.type === undefined ? {} : { type: answer.type }),
      ...(answer.headers === undefined ? {} : { headers: answer.headers(facts) }),
      ...(answer.members === undefined ? {} : { members: answer.members(facts) }),
    });
  }

  /** The sentence that says when `reason` is the answer, with its problem type when it has one. */
  says(reason: keyof Reasons & string): string {
    const answer = this.answers[reason];
    const type = 'type' in answer && answer.type !== undefined ? ` (\`${answer.type}\`)` : '';
    return `${answer.when.replace(/\.$/, '')}${type}.`;
  }

  /**
   * The documented response of `reasons` (of one status): each reason's sentence, then `more`
   * (what others, such as Idempotency-Key, add to the same status); its example is the first's.
   */
  response(reasons: readonly (keyof Reasons & string)[], ...more: string[]): ProblemResponse {
    const statuses = new Set(reasons.map((reason) => this.answers[reason].status));
    if (statuses.size !== 1)
      throw new Error(`${this.feature}: one response documents one status, not ${[...statuses].join(', ')}`);
    const [first] = reasons;
    return {
      status: this.answers[first].status,
      description: [...reasons.map((reason) => this.says(reason)), ...more].join(' '),
      detail: this.problem(first, this.answers[first].example).detail,
    };
  }

  /** Every reason with its answer, for docs/api.md. */
  rows(): ProblemReasonRow[] {
    const answers = this.answers as unknown as Record<string, ProblemAnswer<unknown> | InvalidFieldsAnswer<unknown>>;
    return Object.entries(answers).map(([reason, answer]) => ({
      feature: this.feature,
      reason,
      status: answer.status,
      type: 'errors' in answer ? VALIDATION_PROBLEM_TYPE : (answer.type ?? 'about:blank'),
      when: answer.when,
    }));
  }
}
