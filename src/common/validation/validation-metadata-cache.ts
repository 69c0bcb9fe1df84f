import { getMetadataStorage } from 'class-validator';

type Storage = ReturnType<typeof getMetadataStorage>;
type Lookup = Storage['getTargetValidationMetadatas'];
type Grouping = Storage['groupByPropertyName'];
type ValidationMetadata = Parameters<Storage['addValidationMetadata']>[0];

/** Marks a storage already wrapped (a second call, or a second copy of this module). */
const CACHED = Symbol.for('museum.validationMetadataCache');

/**
 * Remembers class-validator's rules per validated class. Every validation (each body, query and
 * path parameter DTO of every request) asks the storage for its class's rules, and the storage
 * answers by walking every class that has rules, testing each for being a superclass
 * (`prototype instanceof`), then filtering and de-duplicating: 1.2–1.7% of a request's CPU, and
 * more with every DTO a module adds. The rules of a class change only when a decorator adds one
 * (`addValidationMetadata`, at class definition), so the answers are kept until the next add and
 * then all forgotten. Only the service's own calls are kept, without groups or a schema name; any
 * other call goes to the storage as before. Answers are shared arrays and objects: class-validator
 * reads them and never changes them (ValidationExecutor 0.15), and neither may anyone else.
 */
export function cacheValidationMetadata(storage: Storage = getMetadataStorage()): void {
  const marked = storage as Storage & { [CACHED]?: true };
  if (marked[CACHED]) return;
  marked[CACHED] = true;

  const lookup: Lookup = storage.getTargetValidationMetadatas.bind(storage);
  const grouping: Grouping = storage.groupByPropertyName.bind(storage);
  const add = storage.addValidationMetadata.bind(storage);
  // Per class, by the `always` and `strictGroups` flags (index 0–3).
  let rules = new WeakMap<object, (ValidationMetadata[] | undefined)[]>();
  let grouped = new WeakMap<ValidationMetadata[], Record<string, ValidationMetadata[]>>();

  storage.addValidationMetadata = (metadata: ValidationMetadata): void => {
    add(metadata);
    rules = new WeakMap();
    grouped = new WeakMap();
  };

  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    if (schema || (groups !== undefined && groups.length > 0) || typeof target !== 'function') {
      return lookup(target, schema, always, strictGroups, groups);
    }
    const slot = (always ? 1 : 0) + (strictGroups ? 2 : 0);
    let ofTarget = rules.get(target);
    if (ofTarget === undefined) {
      ofTarget = [];
      rules.set(target, ofTarget);
    }
    return (ofTarget[slot] ??= lookup(target, schema, always, strictGroups, groups));
  };

  storage.groupByPropertyName = (metadata) => {
    let byName = grouped.get(metadata);
    if (byName === undefined) {
      byName = grouping(metadata);
      grouped.set(metadata, byName);
    }
    return byName;
  };
}
