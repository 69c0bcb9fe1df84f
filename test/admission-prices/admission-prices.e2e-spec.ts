import { DataSource } from 'typeorm';
import { describe, expect, it } from 'vitest';
import { expectProblem, expectStatus } from '../helpers/problem-assertions.js';
import { useTestApp } from '../helpers/test-app.js';
import { ADMISSION_PRICES_PATH, FAMILY_PRICES, readAdmissionPrices, setAdmissionPrices } from './api.js';

/**
 * GET and PUT /admission-prices over HTTP, on SQLite and MySQL: the list is put and read as a
 * whole, in the order given, [] removes it, and every bad list is a 400 naming the body and the
 * entry, with nothing stored.
 */

const t = useTestApp();

type Problem = { errors: { field: string; message: string }[] };

async function expectRefused(body: unknown, message: RegExp): Promise<void> {
  expectStatus(await setAdmissionPrices(t.baseUrl, FAMILY_PRICES), 200);
  const refused = expectProblem(await setAdmissionPrices(t.baseUrl, body), 400, ADMISSION_PRICES_PATH, true);
  const { errors } = refused as unknown as Problem;
  expect(errors.map((error) => error.field)).toEqual(['body']);
  expect(errors[0].message).toMatch(message);
  // Nothing of the refused list is stored: the list put before stays.
  expect((await readAdmissionPrices(t.baseUrl)).body).toEqual(FAMILY_PRICES);
}

describe('admission prices', () => {
  it('reads [] before any list is put', async () => {
    const read = await readAdmissionPrices(t.baseUrl);
    expectStatus(read, 200);
    expect(read.body).toEqual([]);
    expect(read.headers['cache-control']).toBe('no-store');
  });

  it('stores a list with PUT, answers it as stored, and reads it back in the order given', async () => {
    const list = [
      { category: 'senior', price: 12 },
      { category: 'adult', price: 15 },
      { category: 'Child 🧒', price: 0 },
    ];
    const put = await setAdmissionPrices(t.baseUrl, list);
    expectStatus(put, 200);
    expect(put.body).toEqual(list);
    expect((await readAdmissionPrices(t.baseUrl)).body).toEqual(list);
    const rows = (await t.app
      .get(DataSource)
      .query('SELECT category, price, position FROM admission_prices ORDER BY position')) as {
      category: string;
      price: number;
      position: number;
    }[];
    expect(rows.map((row) => ({ ...row, price: Number(row.price), position: Number(row.position) }))).toEqual(
      list.map((entry, position) => ({ ...entry, position })),
    );
  });

  it('replaces the whole list: a category left out is gone, and [] removes every one', async () => {
    expectStatus(await setAdmissionPrices(t.baseUrl, FAMILY_PRICES), 200);
    expectStatus(await setAdmissionPrices(t.baseUrl, [{ category: 'child', price: 7 }]), 200);
    expect((await readAdmissionPrices(t.baseUrl)).body).toEqual([{ category: 'child', price: 7 }]);
    const emptied = await setAdmissionPrices(t.baseUrl, []);
    expectStatus(emptied, 200);
    expect(emptied.body).toEqual([]);
    expect((await readAdmissionPrices(t.baseUrl)).body).toEqual([]);
  });

  it('replaces as a whole under concurrent PUTs: each answers 200, and the list read is one of them, never a mix', async () => {
    const lists = Array.from({ length: 8 }, (_, i) => [
      { category: `first ${i}`, price: i },
      { category: 'shared', price: i },
      { category: `last ${i}`, price: i + 0.5 },
    ]);
    const answers = await Promise.all(lists.map((list) => setAdmissionPrices(t.baseUrl, list)));
    for (const answer of answers) expectStatus(answer, 200);
    const read = (await readAdmissionPrices(t.baseUrl)).body as unknown;
    expect(lists).toContainEqual(read);
  });

  it('keeps a price exactly (19.99 stays 19.99) and tells categories apart by letter case', async () => {
    const list = [
      { category: 'Adult', price: 19.99 },
      { category: 'adult', price: 1e9 },
    ];
    expectStatus(await setAdmissionPrices(t.baseUrl, list), 200);
    expect((await readAdmissionPrices(t.baseUrl)).body).toEqual(list);
  });

  it('refuses a category given twice, naming the entry', async () => {
    await expectRefused(
      [
        { category: 'adult', price: 1 },
        { category: 'child', price: 1 },
        { category: 'adult', price: 2 },
      ],
      /item 2 repeats the category "adult" of item 0/,
    );
  });

  it('refuses a negative price', async () => {
    await expectRefused([{ category: 'adult', price: -1 }], /item 0 price must be from 0 to 1000000000/);
  });

  it('refuses 21 entries', async () => {
    const list = Array.from({ length: 21 }, (_, i) => ({ category: `c${i}`, price: i }));
    await expectRefused(list, /at most 20 entries \(it has 21\)/);
  });

  it('refuses a category of 41 characters, and takes one of 40', async () => {
    await expectRefused(
      [{ category: 'x'.repeat(41), price: 1 }],
      /category must be 1 to 40 characters long \(it has 41\)/,
    );
    expectStatus(await setAdmissionPrices(t.baseUrl, [{ category: 'x'.repeat(40), price: 1 }]), 200);
  });

  it('refuses an empty or blank category, white space at its ends, and a price that is no number', async () => {
    await expectRefused([{ category: '', price: 1 }], /item 0 category must be 1 to 40/);
    await expectRefused([{ category: '   ', price: 1 }], /item 0 category must contain visible characters/);
    await expectRefused([{ category: 'adult ', price: 1 }], /item 0 category must not begin or end with white space/);
    await expectRefused([{ category: 'adult', price: '20' }], /item 0 price must be a finite JSON number/);
  });

  it('refuses an object for the list, and an entry with a property of its own', async () => {
    await expectRefused({ category: 'adult', price: 1 }, /must be an array/);
    await expectRefused([{ category: 'adult', price: 1, currency: 'EUR' }], /item 0 has unknown properties: currency/);
  });
});
