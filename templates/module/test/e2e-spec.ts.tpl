import request from 'supertest';
import { DataSource } from 'typeorm';
import { describe, expect, it } from 'vitest';
import { EDITOR, VIEWER } from '../helpers/roles.js';
import { expectProblem, expectStatus, expectUnauthorized } from '../helpers/problem-assertions.js';
import { AUTH, basicHeader, useTestApp } from '../helpers/test-app.js';
import { UsersService } from '../../src/auth/users.service.js';
import { {{singularCamel}}Path, store{{Singular}} } from './api.js';

/** The {{plural}} module over HTTP, on the app as main.ts builds it, on SQLite and MySQL. */

const t = useTestApp();
const VIEWER_AUTH = basicHeader(VIEWER.user, VIEWER.password);

describe('{{plural}}', () => {
  it('stores {{a}} {{singularWords}} with PUT, reads it back with GET, and keeps it in its table', async () => {
    const path = {{singularCamel}}Path();
    const stored = await request(t.baseUrl).put(path).set('Authorization', AUTH).send({ name: 'Patrons' });
    expectStatus(stored, 200);
    const id = path.split('/')[2];
    expect(stored.body).toEqual({ {{singularCamel}}Id: id, name: 'Patrons', updatedAt: expect.any(String) as unknown });
    const read = await request(t.baseUrl).get(path).set('Authorization', AUTH);
    expectStatus(read, 200);
    expect(read.body).toEqual(stored.body);
    const rows = (await t.app
      .get(DataSource)
      .query('SELECT name FROM {{table}} WHERE {{singular_snake}}_id = ?', [id])) as { name: string }[];
    expect(rows).toEqual([{ name: 'Patrons' }]);
  });

  it('replaces {{a}} {{singularWords}} stored under the same id', async () => {
    const path = await store{{Singular}}(t, 'First');
    expectStatus(await request(t.baseUrl).put(path).set('Authorization', AUTH).send({ name: 'Second' }), 200);
    const read = await request(t.baseUrl).get(path).set('Authorization', AUTH);
    expect((read.body as { name: string }).name).toBe('Second');
  });

  it('deletes {{a}} {{singularWords}}: 204, then 404 with the no-{{singular}} detail', async () => {
    const path = await store{{Singular}}(t);
    expectStatus(await request(t.baseUrl).delete(path).set('Authorization', AUTH), 204);
    const gone = expectProblem(await request(t.baseUrl).get(path).set('Authorization', AUTH), 404, path);
    expect(gone.detail).toBe(`No {{singularWords}} ${path.split('/')[2]}.`);
    expectProblem(await request(t.baseUrl).delete(path).set('Authorization', AUTH), 404, path);
  });

  it('refuses a blank name and an unknown property with 400 naming both, and a bad id with 400', async () => {
    const path = {{singularCamel}}Path();
    const invalid = await request(t.baseUrl).put(path).set('Authorization', AUTH).send({ name: ' ', extra: 1 });
    const body = expectProblem(invalid, 400, path, true);
    expect((body.errors as { field: string }[]).map((error) => error.field).sort()).toEqual(['extra', 'name']);
    const badId = await request(t.baseUrl).get('/{{plural}}/not-a-uuid').set('Authorization', AUTH);
    expectProblem(badId, 400, '/{{plural}}/not-a-uuid', true);
  });

  it('asks for credentials, lets a viewer read and only an editor write', async () => {
    const path = await store{{Singular}}(t);
    expectUnauthorized(await request(t.baseUrl).get(path), path);
    await t.app.get(UsersService).add(VIEWER.user, VIEWER.password, 'viewer');
    await t.app.get(UsersService).add(EDITOR.user, EDITOR.password, 'editor');
    expectStatus(await request(t.baseUrl).get(path).set('Authorization', VIEWER_AUTH), 200);
    expectProblem(await request(t.baseUrl).delete(path).set('Authorization', VIEWER_AUTH), 403, path);
    const editor = basicHeader(EDITOR.user, EDITOR.password);
    expectStatus(await request(t.baseUrl).delete(path).set('Authorization', editor), 204);
  });
});
