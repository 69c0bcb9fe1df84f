import type { Request } from 'express';
import { ProblemCatalog } from './problem-catalog.js';
import { ProblemTranslators } from './problem-translators.js';

interface Reasons {
  'sold-out': { readonly capacity: number };
  busy: { readonly seconds: number };
  invalid: { readonly errors: readonly { field: string; message: string }[] };
}

class TestRefusal<R extends keyof Reasons = keyof Reasons> extends Error {
  constructor(
    readonly reason: R,
    readonly facts: Reasons[R],
  ) {
    super(reason);
  }
}

const CATALOG = new ProblemCatalog<Reasons>('test', TestRefusal, {
  'sold-out': {
    status: 409,
    type: 'urn:test:sold-out',
    detail: ({ capacity }) => `All ${capacity} are sold.`,
    when: 'Nothing is left.',
    example: { capacity: 7 },
  },
  busy: {
    status: 503,
    detail: () => 'Busy; retry.',
    headers: ({ seconds }) => ({ 'Retry-After': String(seconds) }),
    when: 'Too many at once.',
    example: { seconds: 1 },
  },
  invalid: {
    status: 400,
    errors: ({ errors }) => errors,
    when: 'A field breaks a rule.',
    example: { errors: [{ field: 'a', message: 'a is wrong' }] },
  },
});

const request = {} as Request;

describe('ProblemCatalog', () => {
  it("answers its feature's refusal with the reason's status, type, detail and headers", () => {
    const problem = CATALOG.translate(new TestRefusal('sold-out', { capacity: 3 }), request);
    expect(problem?.getStatus()).toBe(409);
    expect(problem?.headers).toEqual({});
    expect(problem?.toProblem('/x')).toStrictEqual({
      type: 'urn:test:sold-out',
      title: 'Conflict',
      status: 409,
      detail: 'All 3 are sold.',
      instance: '/x',
    });
    const busy = CATALOG.translate(new TestRefusal('busy', { seconds: 2 }), request);
    expect(busy?.headers).toEqual({ 'Retry-After': '2' });
    expect(busy?.toProblem('/x').type).toBe('about:blank');
  });

  it('answers an invalid-fields reason as a validation problem naming the fields', () => {
    const problem = CATALOG.problem('invalid', { errors: [{ field: 'b', message: 'b must be set' }] });
    expect(problem.toProblem('/x')).toMatchObject({
      type: 'urn:museum:problem:validation',
      status: 400,
      detail: 'The request is invalid: check b.',
      errors: [{ field: 'b', message: 'b must be set' }],
    });
  });

  it('knows nothing of other errors, another feature’s refusals included', () => {
    class OtherRefusal extends Error {
      readonly reason = 'sold-out';
      readonly facts = { capacity: 1 };
    }
    expect(CATALOG.translate(new OtherRefusal(), request)).toBeUndefined();
    expect(CATALOG.translate(new Error('sold-out'), request)).toBeUndefined();
  });

  it('documents a response from its reasons: each with its type, then what others add; the example from the first', () => {
    expect(CATALOG.response(['sold-out'], 'Or something else.')).toStrictEqual({
      status: 409,
      description: 'Nothing is left (`urn:test:sold-out`). Or something else.',
      detail: 'All 7 are sold.',
    });
    expect(() => CATALOG.response(['sold-out', 'busy'])).toThrow(/one status/);
  });
});

describe('ProblemTranslators', () => {
  it('asks the application’s translators first, then those added, each once', () => {
    const first = (): undefined => undefined;
    const translators = new ProblemTranslators([first]);
    translators.add(CATALOG.translate);
    translators.add(CATALOG.translate);
    expect([...translators]).toEqual([first, CATALOG.translate]);
  });
});
