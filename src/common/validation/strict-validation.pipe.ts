import { type ArgumentMetadata, Injectable, ValidationPipe, type ValidationError } from '@nestjs/common';
import { getMetadataStorage } from 'class-validator';
import { type FieldError, ProblemException, validationProblem } from '../problem/problem.js';
import { cacheValidationMetadata } from './validation-metadata-cache.js';

/**
 * The one validation pipeline of the service (registered as APP_PIPE).
 *
 * - No coercion: `"25"` stays a string and fails a number rule (enableImplicitConversion off).
 * - Unknown properties of a body or a query are rejected by name *before* class-transformer sees
 *   them. Nest's pipe would otherwise silently delete `__proto__`, `prototype` and `constructor`,
 *   names like `toString` would pass as if known, and a typo must never drop data without a word.
 * - A body must be a JSON object; every failing field is reported at once.
 */
@Injectable()
export class StrictValidationPipe extends ValidationPipe {
  private readonly knownProperties = new WeakMap<object, ReadonlySet<string>>();

  constructor() {
    super({
      transform: true,
      whitelist: true,
      forbidNonWhitelisted: true,
      forbidUnknownValues: true,
      transformOptions: { enableImplicitConversion: false, exposeDefaultValues: false },
      validationError: { target: false, value: false },
      exceptionFactory: (errors) => validationProblem(toFieldErrors(errors)),
    });
    cacheValidationMetadata();
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const metatype = metadata.metatype;
    const kind = metadata.type;
    if ((kind !== 'body' && kind !== 'query') || !metatype || !this.toValidate(metadata)) {
      return super.transform(value, metadata);
    }
    if (kind === 'body' && !isPlainObject(value)) {
      throw validationProblem([{ field: 'body', message: 'body must be a JSON object' }]);
    }
    const known = this.propertiesOf(metatype);
    // Own names only, checked against the DTO's rules: `?toString=1` or `?__proto__=1` is an
    // unknown parameter like `?limt=5`, not something the object already "has".
    const unknownKeys = Object.keys(value as object).filter((key) => !known.has(key));
    if (unknownKeys.length === 0) return super.transform(value, metadata);

    // Each key named once, in `field` (a key as long as the body itself is shown cut short), and
    // after the errors of the known fields: validationProblem lists only the first errors.
    const message = kind === 'body' ? 'not a property of this resource' : 'not a parameter of this operation';
    const unknownErrors = unknownKeys.map((key) => ({ field: shownKey(key), message }));
    const rest = Object.fromEntries(Object.entries(value as object).filter(([key]) => known.has(key)));
    try {
      await super.transform(rest, metadata);
    } catch (error) {
      if (error instanceof ProblemException && error.extras.errors) {
        throw validationProblem([...error.extras.errors, ...unknownErrors]);
      }
      throw error;
    }
    throw validationProblem(unknownErrors);
  }

  private propertiesOf(metatype: abstract new (...args: never[]) => unknown): ReadonlySet<string> {
    let known = this.knownProperties.get(metatype);
    if (!known) {
      const rules = getMetadataStorage().getTargetValidationMetadatas(metatype, '', true, false);
      known = new Set(rules.map((rule) => rule.propertyName));
      this.knownProperties.set(metatype, known);
    }
    return known;
  }
}

/** Longest unknown key shown whole in a 400. */
const MAX_SHOWN_KEY = 64;

function shownKey(key: string): string {
  return key.length > MAX_SHOWN_KEY ? `${key.slice(0, MAX_SHOWN_KEY)}…` : key;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

/** class-validator's error tree as one flat list of `{ field, message }`. */
export function toFieldErrors(errors: readonly ValidationError[], parent = ''): FieldError[] {
  return errors.flatMap((error) => {
    const field = parent ? `${parent}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((message) => ({ field, message }));
    return [...own, ...toFieldErrors(error.children ?? [], field)];
  });
}
