import type { Request } from 'express';
import { CLIENT_IPV6_PREFIX_SETTING, clientAddress, clientKeyOf } from './client-address.js';

describe('clientKeyOf', () => {
  it('keeps an IPv4 address as it is, one client per address', () => {
    expect(clientKeyOf('203.0.113.7', 64)).toBe('203.0.113.7');
    expect(clientKeyOf('203.0.113.8', 64)).not.toBe(clientKeyOf('203.0.113.7', 64));
  });

  it('counts an IPv4-mapped IPv6 address as its IPv4 address', () => {
    expect(clientKeyOf('::ffff:203.0.113.7', 64)).toBe('203.0.113.7');
  });

  it('counts every IPv6 address of one /64 as one client, and another /64 as another', () => {
    const key = clientKeyOf('2001:db8:1:2::1', 64);
    expect(key).toBe('2001:db8:1:2::/64');
    for (const address of ['2001:db8:1:2::ffff', '2001:db8:1:2:ffff:ffff:ffff:ffff', '2001:DB8:1:2:0:0:0:7']) {
      expect(clientKeyOf(address, 64)).toBe(key);
    }
    expect(clientKeyOf('2001:db8:1:3::1', 64)).not.toBe(key);
    expect(clientKeyOf('fe80::1%eth0', 64)).toBe('fe80::/64');
  });

  it('takes the configured prefix, bit by bit', () => {
    expect(clientKeyOf('2001:db8:1:2::1', 48)).toBe('2001:db8:1::/48');
    expect(clientKeyOf('2001:db8:1:ff::1', 56)).toBe('2001:db8:1::/56');
    expect(clientKeyOf('2001:db8:1:100::1', 56)).toBe('2001:db8:1:100::/56');
    expect(clientKeyOf('2001:db8::1', 128)).toBe('2001:db8::1/128');
    expect(clientKeyOf('2001:db8::1', 127)).toBe('2001:db8::/127');
  });

  it('keeps anything else short: as it is up to 16 characters, else as a digest of it', () => {
    expect(clientKeyOf('unknown', 64)).toBe('unknown');
    expect(clientKeyOf('not an address', 64)).toBe('not an address');
    const long = clientKeyOf('x'.repeat(10_000), 64);
    expect(long).toMatch(/^#[A-Za-z0-9_-]{43}$/);
    expect(clientKeyOf(`${'x'.repeat(9_999)}y`, 64)).not.toBe(long);
  });
});

describe('clientAddress', () => {
  function requestFrom(ip: string, prefix?: number): Request {
    const settings = new Map<string, unknown>(prefix === undefined ? [] : [[CLIENT_IPV6_PREFIX_SETTING, prefix]]);
    return { ip, socket: {}, app: { get: (name: string) => settings.get(name) } } as unknown as Request;
  }

  it("reads the app's prefix, a /64 by default", () => {
    expect(clientAddress(requestFrom('2001:db8:1:2::1'))).toBe('2001:db8:1:2::/64');
    expect(clientAddress(requestFrom('2001:db8:1:2::1', 32))).toBe('2001:db8::/32');
  });

  it('works it out once per request', () => {
    const request = requestFrom('2001:db8:1:2::1');
    expect(clientAddress(request)).toBe('2001:db8:1:2::/64');
    Object.assign(request, { ip: '203.0.113.7' });
    expect(clientAddress(request)).toBe('2001:db8:1:2::/64');
  });
});
