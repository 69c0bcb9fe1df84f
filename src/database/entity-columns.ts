import { getMetadataArgsStorage } from 'typeorm';

/**
 * A table that has an entity is described by it alone: its repository reads the column names
 * from it (columnsOf, selectList, insertInto) and types its rows by it (RowOf), and the migration
 * generator diffs it against the migrations. A table without an entity is described by its
 * migration and its repository's row type.
 */

/** As a raw SELECT hands a value back: MySQL gives BIGINT as a string, SQLite a boolean as 0/1. */
export type RawValue<T> = T extends boolean ? number | string : T extends number ? number | string : T;

/** A row of the entity's table as a raw SELECT of selectList(entity) returns it. */
export type RowOf<E> = { [K in keyof E]: RawValue<E[K]> };

type EntityClass<E> = abstract new () => E;

/** The entity's table name. */
export function tableOf<E>(entity: EntityClass<E>): string {
  const table = getMetadataArgsStorage().tables.find((args) => args.target === entity);
  if (table?.name === undefined) throw new Error(`${entity.name} is not an entity with a table name`);
  return table.name;
}

/** Each property of the entity and its column's name, in the order the entity declares them. */
export function columnsOf<E>(entity: EntityClass<E>): ReadonlyMap<keyof E & string, string> {
  const columns = getMetadataArgsStorage().columns.filter((args) => args.target === entity);
  if (columns.length === 0) throw new Error(`${entity.name} declares no columns`);
  return new Map(
    columns.map((args) => [args.propertyName as keyof E & string, args.options.name ?? args.propertyName]),
  );
}

/** One column of an entity as its decorator declares it. */
export interface EntityColumn<E> {
  readonly property: keyof E & string;
  readonly column: string;
  /** The declared type (`varchar`, `integer`, `bigint`, `json`, `double`…). */
  readonly type: string;
  readonly nullable: boolean;
}

/** The entity's columns with their declared types, in the order the entity declares them. */
export function columnDetailsOf<E>(entity: EntityClass<E>): readonly EntityColumn<E>[] {
  const columns = getMetadataArgsStorage().columns.filter((args) => args.target === entity);
  if (columns.length === 0) throw new Error(`${entity.name} declares no columns`);
  return columns.map((args) => ({
    property: args.propertyName as keyof E & string,
    column: args.options.name ?? args.propertyName,
    type: typeof args.options.type === 'string' ? args.options.type : String(args.options.type?.name ?? ''),
    nullable: args.options.nullable === true,
  }));
}

/** `column AS property, …` for every column of the entity: a SELECT that yields RowOf<E>. */
export function selectList<E>(entity: EntityClass<E>, alias?: string): string {
  const prefix = alias === undefined ? '' : `${alias}.`;
  return [...columnsOf(entity)].map(([property, column]) => `${prefix}${column} AS ${property}`).join(', ');
}

/** The column of one property, for a statement written by hand. */
export function columnOf<E>(entity: EntityClass<E>, property: keyof E & string): string {
  const column = columnsOf(entity).get(property);
  if (column === undefined) throw new Error(`${entity.name} has no column for ${property}`);
  return column;
}

/** `INSERT INTO table (columns of these properties) VALUES (?, …)`, in the order given. */
export function insertInto<E>(entity: EntityClass<E>, properties: readonly (keyof E & string)[]): string {
  const columns = properties.map((property) => columnOf(entity, property));
  return `INSERT INTO ${tableOf(entity)} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`;
}
