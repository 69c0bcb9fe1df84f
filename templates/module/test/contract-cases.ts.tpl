import { randomUUID } from 'node:crypto';
import { type ContractCases, type Exchange, getAuthed, JSON_TYPE, type Method, send } from '../helpers/contract.js';
import { AUTH, type TestApp } from '../helpers/test-app.js';
import { store{{Singular}} } from './api.js';

/** The {{plural}}' operations in the contract table (test/openapi-contract.e2e-spec.ts). */

const ONE = '/{{plural}}/{{{singularCamel}}Id}';

const put = (t: TestApp, path: string, body: string, contentType = JSON_TYPE): Promise<Exchange> =>
  send(t, 'put', path, { headers: { Authorization: AUTH, 'Content-Type': contentType }, body });
const anonymous = (t: TestApp, method: Method, path: string): Promise<Exchange> => send(t, method, path);
const remove = (t: TestApp, path: string): Promise<Exchange> =>
  send(t, 'delete', path, { headers: { Authorization: AUTH } });

const contract: ContractCases = {
  cases: [
    { app: 'main', method: 'get', path: ONE, status: 200, what: 'a stored one', send: async (t) => getAuthed(t, await store{{Singular}}(t)) },
    { app: 'main', method: 'get', path: ONE, status: 400, what: 'an id that is no UUID', send: (t) => getAuthed(t, '/{{plural}}/nope') },
    { app: 'main', method: 'get', path: ONE, status: 401, what: 'no credentials', send: (t) => anonymous(t, 'get', `/{{plural}}/${randomUUID()}`) },
    { app: 'main', method: 'get', path: ONE, status: 404, what: 'an unknown id', send: (t) => getAuthed(t, `/{{plural}}/${randomUUID()}`) },
    { app: 'main', method: 'put', path: ONE, status: 200, what: 'a new one', send: (t) => put(t, `/{{plural}}/${randomUUID()}`, JSON.stringify({ name: 'Patrons' })) },
    { app: 'main', method: 'put', path: ONE, status: 400, what: 'a blank name', send: (t) => put(t, `/{{plural}}/${randomUUID()}`, JSON.stringify({ name: ' ' })) },
    { app: 'main', method: 'put', path: ONE, status: 401, what: 'no credentials', send: (t) => anonymous(t, 'put', `/{{plural}}/${randomUUID()}`) },
    { app: 'main', method: 'put', path: ONE, status: 413, what: 'a body over 256 KiB', send: (t) => put(t, `/{{plural}}/${randomUUID()}`, JSON.stringify({ name: 'x'.repeat(300 * 1024) })) },
    { app: 'main', method: 'put', path: ONE, status: 415, what: 'a body that is not JSON', send: (t) => put(t, `/{{plural}}/${randomUUID()}`, 'name', 'text/plain') },
    { app: 'main', method: 'delete', path: ONE, status: 204, what: 'a stored one', send: async (t) => remove(t, await store{{Singular}}(t)) },
    { app: 'main', method: 'delete', path: ONE, status: 400, what: 'an id that is no UUID', send: (t) => remove(t, '/{{plural}}/nope') },
    { app: 'main', method: 'delete', path: ONE, status: 401, what: 'no credentials', send: (t) => anonymous(t, 'delete', `/{{plural}}/${randomUUID()}`) },
    { app: 'main', method: 'delete', path: ONE, status: 404, what: 'an unknown id', send: (t) => remove(t, `/{{plural}}/${randomUUID()}`) },
  ],
};

export default contract;
