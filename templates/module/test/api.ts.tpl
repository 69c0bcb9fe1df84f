import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { expectStatus } from '../helpers/problem-assertions.js';
import { AUTH, type TestApp } from '../helpers/test-app.js';

/** The path of one {{singularWords}}. */
export const {{singularCamel}}Path = ({{singularCamel}}Id: string = randomUUID()): string => `/{{plural}}/${{{singularCamel}}Id}`;

/** Stores {{a}} {{singularWords}} as the admin and returns its path. */
export async function store{{Singular}}(t: TestApp, name = 'Friends of the museum'): Promise<string> {
  const path = {{singularCamel}}Path();
  expectStatus(await request(t.baseUrl).put(path).set('Authorization', AUTH).send({ name }), 200);
  return path;
}
