import { hash } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';
import type { Request } from 'express';
import ipaddr from 'ipaddr.js';

/** The Express setting that holds CLIENT_IPV6_PREFIX (configureApp sets it). */
export const CLIENT_IPV6_PREFIX_SETTING = 'client ipv6 prefix';
/** A subscriber's usual share of IPv6: one /64 (RFC 6177), 2^64 addresses. */
export const DEFAULT_CLIENT_IPV6_PREFIX = 64;

const CLIENT = Symbol('client address');

type Carrier = Request & { [CLIENT]?: string };

/**
 * The client a request counts against wherever an address is a key (the public read limit, the
 * failure limiter, the check-in guess limit, the hash gate's turns): the address Express gives
 * (TRUST_PROXY decides whether a proxy may say it), an IPv4 address as it is, and an IPv6 one by
 * its prefix (CLIENT_IPV6_PREFIX, a /64 by default), since one subscriber holds all of a /64 and
 * could otherwise take a new address for every request. Worked out once per request.
 */
export function clientAddress(request: Request): string {
  const carrier = request as Carrier;
  let client = carrier[CLIENT];
  if (client === undefined) {
    const prefix = (request.app?.get(CLIENT_IPV6_PREFIX_SETTING) as number | undefined) ?? DEFAULT_CLIENT_IPV6_PREFIX;
    client = clientKeyOf(request.ip ?? request.socket.remoteAddress ?? 'unknown', prefix);
    carrier[CLIENT] = client;
  }
  return client;
}

/**
 * `address` as a client: an IPv4 address (an IPv4-mapped IPv6 one included) as it is, an IPv6
 * address as its first `ipv6Prefix` bits (`2001:db8:1:2::/64`), anything else (only a proxy that
 * passes on what it was sent gives that) as a SHA-256 digest: at most 44 characters, so no key
 * kept in memory or in the public read limit's table is longer, whatever was sent.
 */
export function clientKeyOf(address: string, ipv6Prefix: number): string {
  if (isIPv4(address)) return address;
  if (!isIPv6(address)) return address.length <= 16 ? address : `#${hash('sha256', address, 'base64url')}`;
  const parsed = ipaddr.IPv6.parse(address);
  if (parsed.isIPv4MappedAddress()) return parsed.toIPv4Address().toString();
  const bytes = parsed.toByteArray();
  for (let bit = ipv6Prefix; bit < 128; bit++) bytes[bit >> 3] &= ~(0x80 >> (bit & 7));
  return `${ipaddr.fromByteArray(bytes).toString()}/${ipv6Prefix}`;
}
