import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Request } from 'express';
import ts from 'typescript';
import { describe, expect, it, vi } from 'vitest';
import type { BasicCredentials } from './basic-credentials.js';
import { CredentialCache } from './credential-cache.js';
import { PresentedCredentials } from './presented-credentials.js';

const b64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');

/** A request whose Authorization header counts how often it is read. */
function requestWith(authorization: string | undefined): { request: Request; reads: () => number } {
  let reads = 0;
  const headers = {
    get authorization() {
      reads++;
      return authorization;
    },
  };
  return { request: { headers } as unknown as Request, reads: () => reads };
}

describe('PresentedCredentials', () => {
  const keyerOf = () =>
    vi.fn<(credentials: BasicCredentials) => string>(({ username, password }) => `${username}|${password}`);

  it('reads, parses and hashes the header once per request, however often it is asked for', () => {
    const keyer = { keyOf: keyerOf() };
    const { request, reads } = requestWith(`Basic ${b64('ann:pass:word')}`);
    const first = PresentedCredentials.of(request, keyer);
    const second = PresentedCredentials.of(request, keyer);
    expect(second).toBe(first);
    expect(first?.key).toBe('ann|pass:word');
    expect(keyer.keyOf).toHaveBeenCalledTimes(1);
    expect(reads()).toBe(1);
    expect(first?.credentials).toStrictEqual({ username: 'ann', password: 'pass:word' });
  });

  it('another request is hashed on its own', () => {
    const keyer = { keyOf: keyerOf() };
    PresentedCredentials.of(requestWith(`Basic ${b64('a:b')}`).request, keyer);
    PresentedCredentials.of(requestWith(`Basic ${b64('a:b')}`).request, keyer);
    expect(keyer.keyOf).toHaveBeenCalledTimes(2);
  });

  it('every spelling of the same credentials has the same key; other credentials another', () => {
    const cache = new CredentialCache({ ttlMs: 60_000, maxEntries: 10 });
    const keyOf = (header: string): string | undefined =>
      PresentedCredentials.of(requestWith(header).request, cache)?.key;
    const padded = b64('ann:cafés!'); // 11 bytes: one "=" of padding
    expect(padded).toMatch(/[^=]=$/);
    const key = keyOf(`Basic ${padded}`);
    expect(key).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    for (const header of [
      `basic ${padded}`,
      `BASIC ${padded}`,
      `Basic   ${padded}  `,
      `Basic ${padded.replace(/=+$/, '')}`,
      `Basic ${b64('ann:cafés!'.normalize('NFD'))}`,
    ]) {
      expect(keyOf(header)).toBe(key);
    }
    for (const other of ['ann:cafés?', 'Ann:cafés!', 'ann:cafés!:', 'ann::cafés!']) {
      expect(keyOf(`Basic ${b64(other)}`)).not.toBe(key);
    }
  });

  it('no header, or one that is not Basic credentials: null, and nothing is hashed', () => {
    const keyer = { keyOf: keyerOf() };
    const { request, reads } = requestWith(undefined);
    expect(PresentedCredentials.of(request, keyer)).toBeNull();
    expect(PresentedCredentials.of(request, keyer)).toBeNull();
    expect(reads()).toBe(1);
    expect(PresentedCredentials.of(requestWith('Bearer abc').request, keyer)).toBeNull();
    expect(PresentedCredentials.of(requestWith(`Basic ${b64('no colon')}`).request, keyer)).toBeNull();
    expect(keyer.keyOf).not.toHaveBeenCalled();
  });
});

/** `x.headers.authorization`, `x.headers['authorization']`, `x.get('authorization')`, `x.header(…)`. */
function readsAuthorization(node: ts.Node): boolean {
  const named = (expression: ts.Expression): boolean =>
    ts.isStringLiteralLike(expression) && expression.text.toLowerCase() === 'authorization';
  if (ts.isPropertyAccessExpression(node) && node.name.text === 'authorization') {
    return ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === 'headers';
  }
  if (ts.isElementAccessExpression(node) && named(node.argumentExpression)) return true;
  if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
    const method = node.expression.name.text;
    return ['get', 'header', 'getHeader'].includes(method) && node.arguments.some(named);
  }
  return false;
}

describe('the Authorization header has one door', () => {
  it('no file of src/ but presented-credentials.ts reads it from a request', () => {
    const src = join(import.meta.dirname, '..');
    const readers: string[] = [];
    for (const entry of readdirSync(src, { recursive: true, encoding: 'utf8' })) {
      if (!entry.endsWith('.ts') || entry.endsWith('.spec.ts')) continue;
      const file = join(src, entry);
      const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
      const visit = (node: ts.Node): void => {
        if (readsAuthorization(node)) {
          const { line } = source.getLineAndCharacterOfPosition(node.getStart());
          readers.push(`${relative(src, file)}:${line + 1}`);
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
    expect(readers.map((reader) => reader.replace(/:\d+$/, ''))).toStrictEqual(['auth/presented-credentials.ts']);
  });
});
