import { Column, Entity, PrimaryColumn } from 'typeorm';
import { columnOf, columnsOf, insertInto, selectList, tableOf } from './entity-columns.js';

@Entity({ name: 'exhibits' })
class Exhibit {
  @PrimaryColumn({ name: 'exhibit_id', type: 'varchar', length: 36 })
  exhibitId: string;

  @Column({ type: 'varchar', length: 100 })
  title: string;

  @Column({ name: 'opened_at', type: 'bigint', nullable: true })
  openedAt: number | null;
}

class NotAnEntity {
  name = '';
}

describe('entity-columns: a table with an entity is described by it alone', () => {
  it('reads the table and each column name (the property name when none is given), in declaration order', () => {
    expect(tableOf(Exhibit)).toBe('exhibits');
    expect([...columnsOf(Exhibit)]).toEqual([
      ['exhibitId', 'exhibit_id'],
      ['title', 'title'],
      ['openedAt', 'opened_at'],
    ]);
    expect(columnOf(Exhibit, 'openedAt')).toBe('opened_at');
  });

  it('writes a SELECT list aliased to the properties and an INSERT of the properties given', () => {
    expect(selectList(Exhibit)).toBe('exhibit_id AS exhibitId, title AS title, opened_at AS openedAt');
    expect(selectList(Exhibit, 'e')).toBe('e.exhibit_id AS exhibitId, e.title AS title, e.opened_at AS openedAt');
    expect(insertInto(Exhibit, ['title', 'exhibitId'])).toBe('INSERT INTO exhibits (title, exhibit_id) VALUES (?, ?)');
  });

  it('refuses a class that is not an entity', () => {
    expect(() => tableOf(NotAnEntity)).toThrow(/not an entity/);
    expect(() => columnsOf(NotAnEntity)).toThrow(/no columns/);
  });
});
