/**
 * A request the domain refuses on purpose: a reason code (`sold-out`, `museum-closed`) and the
 * facts its answer needs. Services raise these and never speak HTTP; each feature's
 * `<feature>.problems.ts` says how a reason is answered (status, problem type, detail) and how the
 * API description words it. `Reasons` maps each reason code to its facts.
 */
export class Refusal<Reasons extends object, R extends keyof Reasons & string = keyof Reasons & string> extends Error {
  constructor(
    readonly reason: R,
    readonly facts: Reasons[R],
  ) {
    super(reason);
    this.name = new.target.name;
  }
}

/** One input field that breaks a rule, as a refusal names it. */
export interface FieldRule {
  readonly field: string;
  readonly message: string;
}
