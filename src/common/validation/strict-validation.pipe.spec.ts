import type { ArgumentMetadata } from '@nestjs/common';
import { CreateSpecialEventDto } from '../../special-events/dto/create-special-event.dto.js';
import { EventIdParams } from '../../special-events/dto/event-id-params.dto.js';
import { type FieldError, ProblemException, VALIDATION_PROBLEM_TYPE } from '../problem/problem.js';
import { StrictValidationPipe } from './strict-validation.pipe.js';

const BODY: ArgumentMetadata = { type: 'body', metatype: CreateSpecialEventDto };
const PARAM: ArgumentMetadata = { type: 'param', metatype: EventIdParams };
const EVENT_ID = 'dad4bce8-f5cb-4078-a211-995864315e39';

function validBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    eventId: EVENT_ID,
    name: 'Mermaid Treasure Identification and Analysis',
    location: 'Under the seaaa 🦀 🎶 🌊.',
    eventDescription: 'Join us as we review and classify a rare collection of 20 thingamabobs.',
    dates: ['2025-09-05', '2025-09-08'],
    price: 19.99,
    ...overrides,
  };
}

/** The ProblemException the pipe throws for `value`; fails the test when it does not throw one. */
async function rejectionOf(value: unknown, metadata: ArgumentMetadata = BODY): Promise<ProblemException> {
  const pipe = new StrictValidationPipe();
  const error: unknown = await pipe.transform(value, metadata).then(
    (result) => ({ resolved: result }),
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ProblemException);
  const problem = error as ProblemException;
  expect(problem.getStatus()).toBe(400);
  expect(problem.extras.type).toBe(VALIDATION_PROBLEM_TYPE);
  return problem;
}

function fieldsOf(problem: ProblemException): string[] {
  return (problem.extras.errors ?? []).map((error) => error.field);
}

describe('StrictValidationPipe on the create body', () => {
  it('returns a CreateSpecialEventDto with exactly the values sent', async () => {
    const body = validBody({ capacity: 40 });
    const result = await new StrictValidationPipe().transform(body, BODY);
    expect(result).toBeInstanceOf(CreateSpecialEventDto);
    // Optional fields not sent (capacityPerDate, durationMinutes, prices) are there, undefined.
    expect(Object.fromEntries(Object.entries(result as object))).toStrictEqual({
      ...validBody({ capacity: 40 }),
      capacityPerDate: undefined,
      durationMinutes: undefined,
      prices: undefined,
    });
  });

  it('accepts a body without eventId and leaves it undefined', async () => {
    const body = validBody();
    delete body.eventId;
    const result = (await new StrictValidationPipe().transform(body, BODY)) as CreateSpecialEventDto;
    expect(result).toBeInstanceOf(CreateSpecialEventDto);
    expect(result.eventId).toBeUndefined();
    // The optional fields not sent (eventId, capacity, capacityPerDate, durationMinutes, prices) are left undefined.
    expect(result.capacity).toBeUndefined();
    expect({ ...Object.fromEntries(Object.entries(result)), eventId: EVENT_ID }).toStrictEqual({
      ...validBody(),
      capacity: undefined,
      capacityPerDate: undefined,
      durationMinutes: undefined,
      prices: undefined,
    });
  });

  it('lowercases an uppercase eventId', async () => {
    const result = (await new StrictValidationPipe().transform(
      validBody({ eventId: EVENT_ID.toUpperCase() }),
      BODY,
    )) as CreateSpecialEventDto;
    expect(result.eventId).toBe(EVENT_ID);
  });

  it('accepts eventId null (the service generates one)', async () => {
    const result = (await new StrictValidationPipe().transform(
      validBody({ eventId: null }),
      BODY,
    )) as CreateSpecialEventDto;
    expect(result.eventId).toBeNull();
    expect(result.name).toBe('Mermaid Treasure Identification and Analysis');
  });

  it('keeps the dates in the order sent and an empty list as empty', async () => {
    const pipe = new StrictValidationPipe();
    const ordered = (await pipe.transform(validBody({ dates: ['b', 'a', 'c'] }), BODY)) as CreateSpecialEventDto;
    expect(ordered.dates).toEqual(['b', 'a', 'c']);
    const empty = (await pipe.transform(validBody({ dates: [] }), BODY)) as CreateSpecialEventDto;
    expect(empty.dates).toEqual([]);
  });

  it('does not coerce the string "25" into a price', async () => {
    const problem = await rejectionOf(validBody({ price: '25' }));
    expect(problem.extras.errors).toEqual([{ field: 'price', message: 'price must be a finite JSON number' }]);
    expect(problem.detail).toBe('The request is invalid: check price.');
  });

  it('does not coerce the number 25 into a name', async () => {
    const problem = await rejectionOf(validBody({ name: 25 }));
    expect(problem.extras.errors).toEqual([{ field: 'name', message: 'name must be a string' }]);
  });

  it('rejects an invalid eventId and does not accept an eventId that is not a string', async () => {
    const problem = await rejectionOf(validBody({ eventId: 'not-a-uuid' }));
    expect(fieldsOf(problem)).toEqual(['eventId']);
    expect(problem.extras.errors?.[0].message).toMatch(/^eventId must be a UUID \(RFC 9562\)/);
    expect(fieldsOf(await rejectionOf(validBody({ eventId: 42 })))).toEqual(['eventId']);
  });

  it('names each missing field as required', async () => {
    const problem = await rejectionOf({});
    expect(problem.extras.errors).toEqual([
      { field: 'name', message: 'name is required' },
      { field: 'location', message: 'location is required' },
      { field: 'eventDescription', message: 'eventDescription is required' },
      { field: 'dates', message: 'dates is required' },
      { field: 'price', message: 'price is required' },
    ]);
  });

  it('names an unknown property and every other failing field in the same error', async () => {
    const body = validBody({ eventDescripton: 'A typo', price: '25', name: '   ' });
    delete body.eventDescription;
    const problem = await rejectionOf(body);
    const errors: FieldError[] = [...(problem.extras.errors ?? [])];
    expect(errors).toContainEqual({
      field: 'eventDescripton',
      message: 'not a property of this resource',
    });
    expect(errors).toContainEqual({ field: 'eventDescription', message: 'eventDescription is required' });
    expect(errors).toContainEqual({ field: 'price', message: 'price must be a finite JSON number' });
    expect(errors).toContainEqual({
      field: 'name',
      message: 'name must contain visible characters, not only white space',
    });
    expect(errors).toHaveLength(4);
    expect(problem.detail).toContain('eventDescripton');
    expect(problem.detail).toContain('eventDescription,');
  });

  it('rejects an unknown property even when every known field is valid', async () => {
    const problem = await rejectionOf(validBody({ extra: 1, other: null }));
    expect(problem.extras.errors).toEqual([
      { field: 'extra', message: 'not a property of this resource' },
      { field: 'other', message: 'not a property of this resource' },
    ]);
    expect(problem.detail).toBe('The request is invalid: check extra, other.');
  });

  it.each(['__proto__', 'constructor', 'prototype'])('rejects an own "%s" key by name', async (key) => {
    const json = JSON.stringify(validBody()).replace(/^\{/, `{"${key}": {"isAdmin": true},`);
    const body = JSON.parse(json) as Record<string, unknown>;
    expect(Object.keys(body)).toContain(key);
    const problem = await rejectionOf(body);
    expect(problem.extras.errors).toEqual([{ field: key, message: 'not a property of this resource' }]);
  });

  it.each([
    ['an array', [validBody()]],
    ['null', null],
    ['a string', 'hello'],
    ['a number', 25],
    ['undefined', undefined],
    ['a class instance', new Date()],
  ])('rejects %s as the body, naming "body"', async (_label, value) => {
    const problem = await rejectionOf(value);
    expect(problem.extras.errors).toEqual([{ field: 'body', message: 'body must be a JSON object' }]);
    expect(problem.detail).toBe('The request is invalid: check body.');
  });

  it('lists every failing field of a wholly wrong body', async () => {
    const problem = await rejectionOf({
      eventId: 'x',
      name: '',
      location: 'a'.repeat(201),
      eventDescription: null,
      dates: ['2025-09-05', ''],
      price: -1,
    });
    expect(fieldsOf(problem)).toEqual(['eventId', 'name', 'location', 'eventDescription', 'dates', 'price']);
    expect(problem.extras.errors).toContainEqual({
      field: 'dates',
      message: 'dates item 1 must be 1 to 64 characters long (it has 0)',
    });
    expect(problem.extras.errors).toContainEqual({
      field: 'location',
      message: 'location must be 1 to 200 characters long (it has 201)',
    });
    expect(problem.toProblem('/special-events')).toMatchObject({
      type: VALIDATION_PROBLEM_TYPE,
      title: 'Bad Request',
      status: 400,
      instance: '/special-events',
    });
  });
});

describe('StrictValidationPipe on the eventId path parameter', () => {
  it('lowercases an uppercase UUID', async () => {
    const result = await new StrictValidationPipe().transform({ eventId: EVENT_ID.toUpperCase() }, PARAM);
    expect(result).toBeInstanceOf(EventIdParams);
    expect((result as EventIdParams).eventId).toBe(EVENT_ID);
  });

  it.each(['not-a-uuid', '123', `${EVENT_ID}x`, '00000000-0000-0000-0000-00000000000g'])(
    'rejects %s naming eventId',
    async (eventId) => {
      const problem = await rejectionOf({ eventId }, PARAM);
      expect(fieldsOf(problem)).toEqual(['eventId']);
      expect(problem.extras.errors?.[0].message).toMatch(/^eventId must be a UUID \(RFC 9562\)/);
      expect(problem.detail).toBe('The request is invalid: check eventId.');
    },
  );
});
