import { getMetadataStorage, IsInt, IsString, validateSync } from 'class-validator';
import { cacheValidationMetadata } from './validation-metadata-cache.js';

class Base {
  @IsString()
  name!: unknown;
}

class Derived extends Base {
  @IsInt()
  count!: unknown;
}

class Later {
  @IsString()
  title!: unknown;

  size!: unknown;
}

function failing(object: object): string[] {
  return validateSync(object, { forbidUnknownValues: true })
    .map((error) => error.property)
    .sort();
}

function instance<T extends object>(type: new () => T, fields: Record<string, unknown>): T {
  return Object.assign(new type(), fields);
}

describe('cacheValidationMetadata', () => {
  cacheValidationMetadata();
  const storage = getMetadataStorage();

  it('answers a class’s rules from the cache: the same array, and the same grouping of it', () => {
    const first = storage.getTargetValidationMetadatas(Derived, '', false, false);
    expect(storage.getTargetValidationMetadatas(Derived, '', false, false)).toBe(first);
    expect(first.map((rule) => rule.propertyName).sort()).toEqual(['count', 'name']);
    expect(storage.groupByPropertyName(first)).toBe(storage.groupByPropertyName(first));
    // Each flag combination is its own answer.
    expect(storage.getTargetValidationMetadatas(Derived, '', true, false)).not.toBe(first);
  });

  it('keeps validating a subclass with its inherited rules, and a base class without its subclass’s', () => {
    for (let i = 0; i < 2; i++) {
      expect(failing(instance(Derived, { name: 1, count: 'x' }))).toEqual(['count', 'name']);
      expect(failing(instance(Derived, { name: 'a', count: 2 }))).toEqual([]);
      expect(failing(instance(Base, { name: 'a', count: 'x' }))).toEqual([]);
    }
  });

  it('forgets what it kept when a rule is added after a validation', () => {
    expect(failing(instance(Later, { title: 't', size: 'big' }))).toEqual([]);
    IsInt()(Later.prototype, 'size');
    expect(failing(instance(Later, { title: 't', size: 'big' }))).toEqual(['size']);
    expect(
      storage
        .getTargetValidationMetadatas(Later, '', false, false)
        .map((rule) => rule.propertyName)
        .sort(),
    ).toEqual(['size', 'title']);
  });
});
