import { isJsonMediaType, MERGE_PATCH_MEDIA_TYPE } from './json-body.js';

describe('isJsonMediaType', () => {
  it.each([
    'application/json',
    'Application/JSON; charset=UTF-8',
    'application/json;charset="utf-8"',
    'application/json; charset=utf-8',
    'application/json; charset=utf8',
    'APPLICATION/JSON',
    ' application/json ',
    'application/json;',
  ])('accepts %j', (header) => {
    expect(isJsonMediaType(header)).toBe(true);
  });

  it.each([
    ['text/plain', 'text/plain'],
    ['a Latin-1 charset', 'application/json; charset=latin1'],
    ['a UTF-16 charset', 'application/json; charset=utf-16'],
    ['an empty charset', 'application/json; charset='],
    ['JSONP', 'application/jsonp'],
    ['a prefix of application/json', 'application/jso'],
    ['a form', 'application/x-www-form-urlencoded'],
    ['multipart', 'multipart/form-data; boundary=abc'],
    ['text/json', 'text/json'],
    ['a list of types', 'application/json, text/plain'],
    ['an empty header', ''],
  ])('rejects %s', (_label, header) => {
    expect(isJsonMediaType(header)).toBe(false);
  });

  it('rejects a missing Content-Type', () => {
    expect(isJsonMediaType(undefined)).toBe(false);
  });

  it('checks for another JSON media type when asked (merge patches)', () => {
    expect(isJsonMediaType('application/merge-patch+json; charset=utf-8', MERGE_PATCH_MEDIA_TYPE)).toBe(true);
    expect(isJsonMediaType('application/merge-patch+json', 'application/json')).toBe(false);
    expect(isJsonMediaType('application/json', MERGE_PATCH_MEDIA_TYPE)).toBe(false);
    expect(isJsonMediaType('application/merge-patch+json; charset=latin1', MERGE_PATCH_MEDIA_TYPE)).toBe(false);
  });
});
