import { registerDecorator, type ValidationArguments, type ValidationOptions } from 'class-validator';

/**
 * Field rules as class-validator decorators. Each one checks the JSON type itself (nothing is
 * coerced) and reports a single, specific message, so a client sees one line per failing field
 * instead of every constraint that a wrong type also breaks.
 *
 * Lengths count Unicode code points, the unit MySQL's utf8mb4 VARCHAR(n) counts: validator.js's
 * `isLength` (behind @MaxLength) does not count variation selectors, which would let a value past
 * validation that the database then refuses.
 */

/** RFC 9562 hyphenated form: versions 1-8 with the RFC variant, plus the Nil and Max UUIDs. */
const RFC9562_UUID =
  /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}|0{8}-0{4}-0{4}-0{4}-0{12}|f{8}-f{4}-f{4}-f{4}-f{12})$/i;

export function isRfc9562Uuid(value: unknown): value is string {
  return typeof value === 'string' && RFC9562_UUID.test(value);
}

export function codePointLength(value: string): number {
  let length = 0;
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i);
    // A high surrogate followed by a low one is a single code point.
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < value.length) {
      const next = value.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    length++;
  }
  return length;
}

/** Something a reader can see: not only white space, control or format characters. */
const VISIBLE = /[^\p{White_Space}\p{Cc}\p{Cf}]/u;

/** Why `value` is not acceptable text of at most `max` code points, or null when it is. */
export function textProblem(value: unknown, max: number, min = 1, requireVisible = true): string | null {
  if (typeof value !== 'string') return 'must be a string';
  if (!value.isWellFormed()) return 'must be well-formed Unicode (no unpaired surrogates)';
  const length = codePointLength(value);
  if (length < min || length > max) return `must be ${min} to ${max} characters long (it has ${length})`;
  if (requireVisible && !VISIBLE.test(value)) return 'must contain visible characters, not only white space';
  return null;
}

export interface StringListRules {
  readonly maxItems: number;
  readonly itemMin: number;
  readonly itemMax: number;
}

export function stringListProblem(value: unknown, rules: StringListRules): string | null {
  if (!Array.isArray(value)) return 'must be an array of strings';
  if (value.length > rules.maxItems) {
    return `must have at most ${rules.maxItems} items (it has ${value.length})`;
  }
  const failures: string[] = [];
  for (let i = 0; i < value.length && failures.length < 5; i++) {
    const problem = textProblem(value[i], rules.itemMax, rules.itemMin, false);
    if (problem) failures.push(`item ${i} ${problem}`);
  }
  return failures.length === 0 ? null : failures.join('; ');
}

export function numberProblem(value: unknown, min: number, max: number): string | null {
  if (typeof value !== 'number' || !Number.isFinite(value)) return 'must be a finite JSON number';
  if (value < min || value > max) return `must be from ${min} to ${max}`;
  return null;
}

type Check = (value: unknown) => string | null;

/** Registers a rule whose message is the check's own explanation, prefixed by the field name. */
export function rule(name: string, check: Check, options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) => {
    registerDecorator({
      name,
      target: target.constructor,
      propertyName: propertyName as string,
      options,
      validator: {
        validate: (value: unknown) => check(value) === null,
        defaultMessage: (args?: ValidationArguments) =>
          `${args?.property} ${args?.value === undefined ? 'is required' : (check(args.value) ?? 'is invalid')}`,
      },
    });
  };
}

export const IsRfc9562Uuid = (options?: ValidationOptions): PropertyDecorator =>
  rule(
    'isRfc9562Uuid',
    (value) => (isRfc9562Uuid(value) ? null : 'must be a UUID (RFC 9562), e.g. 0196a8f4-6e2b-7c3d-9e4f-5a6b7c8d9e0f'),
    options,
  );

/** Text with visible content, `max` code points at most. */
export const IsVisibleText = (max: number, options?: ValidationOptions): PropertyDecorator =>
  rule('isVisibleText', (value) => textProblem(value, max), options);

export const IsStringList = (rules: StringListRules, options?: ValidationOptions): PropertyDecorator =>
  rule('isStringList', (value) => stringListProblem(value, rules), options);

export const IsFiniteNumberInRange = (min: number, max: number, options?: ValidationOptions): PropertyDecorator =>
  rule('isFiniteNumberInRange', (value) => numberProblem(value, min, max), options);
