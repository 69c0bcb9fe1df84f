import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions, type LookupOneOptions } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * IANA's global unicast space for IPv6 (RFC 4291, 2000::/3). ipaddr.js calls every address it
 * has no special range for 'unicast', the deprecated IPv4-compatible ::a.b.c.d form included, so
 * an IPv6 address must also lie here.
 */
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');

/**
 * Why `address` may not be contacted, or null when it may. Only what ipaddr.js classifies as
 * 'unicast' (and, for IPv6, lies in 2000::/3) is reachable: loopback, private, link-local (cloud
 * metadata), carrier-grade NAT, reserved, multicast and the rest are refused by the library's
 * ranges, not a list kept here. An IPv4-mapped address (::ffff:a.b.c.d) is that IPv4 address and
 * is judged as one; every other form that carries an IPv4 address (IPv4-compatible, NAT64, 6to4,
 * Teredo, RFC 6145) is refused whatever it carries, because the gateway it names decides where it goes.
 */
export function forbiddenAddress(address: string): string | null {
  if (isIP(address) === 0) return `${address} is not an IP address`;
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.process(address);
  } catch {
    return `${address} is not an IP address`;
  }
  const global =
    parsed.range() === 'unicast' && (parsed.kind() === 'ipv4' || (parsed as ipaddr.IPv6).match(GLOBAL_UNICAST_V6));
  return global ? null : `${address} is a loopback, private, link-local or otherwise internal address`;
}

/** A URL's host as WEBHOOK_ALLOWED_HOSTS writes it: lowercase, IPv6 in brackets, no port. */
function hostOf(url: URL): string {
  return url.hostname.toLowerCase();
}

/** The address inside a URL's host when it is a literal one (brackets removed), else undefined. */
function literalAddress(url: URL): string | undefined {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return isIP(host) === 0 ? undefined : host;
}

export type Resolve = (hostname: string) => Promise<readonly string[]>;

/** Every address `lookup` (the system resolver's) gives for `hostname` (what a connection would use). */
export const systemResolve = (hostname: string, lookup: typeof dnsLookup = dnsLookup): Promise<readonly string[]> =>
  new Promise((resolve, reject) => {
    lookup(hostname, { all: true, verbatim: true }, (error, addresses) => {
      if (error) reject(error);
      else resolve(addresses.map(({ address }) => address));
    });
  });

export class RefusedAddressError extends Error {
  readonly code = 'EWEBHOOKADDRESS';
}

/**
 * Where webhooks may go (the rules of SECURITY.md): https only, plain http for allowed hosts;
 * never an internal address unless the host is allowed. Checked when a subscription is made and
 * again on every connection, after DNS, because a name can resolve elsewhere later.
 */
export class AddressPolicy {
  private readonly allowed: ReadonlySet<string>;
  /** The DNS lookup of the checks and of every delivery's connection: a test may put its own here. */
  dnsLookup: typeof dnsLookup = dnsLookup;

  constructor(
    allowedHosts: readonly string[],
    private readonly resolve: Resolve = (hostname) => systemResolve(hostname, this.dnsLookup),
  ) {
    this.allowed = new Set(allowedHosts);
  }

  isAllowedHost(url: URL): boolean {
    return this.allowed.has(hostOf(url));
  }

  /**
   * Why a subscription to `url` is refused, or null. A name is resolved now: one that does not
   * resolve, or resolves to an internal address (`localhost` included), is refused.
   */
  async refusal(url: URL): Promise<string | null> {
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
      return 'the URL must be https (or http to an allowed host)';
    if (url.username !== '' || url.password !== '') {
      return 'the URL must not carry credentials: authenticate deliveries with the signature';
    }
    if (this.isAllowedHost(url)) return null;
    if (url.protocol === 'http:') {
      return `plain http is allowed only to the hosts in WEBHOOK_ALLOWED_HOSTS, and ${hostOf(url)} is not one: use https`;
    }
    const literal = literalAddress(url);
    if (literal !== undefined) return forbiddenAddress(literal);
    let addresses: readonly string[];
    try {
      addresses = await this.resolve(url.hostname);
    } catch {
      return `${url.hostname} does not resolve`;
    }
    if (addresses.length === 0) return `${url.hostname} does not resolve`;
    for (const address of addresses) {
      const reason = forbiddenAddress(address);
      if (reason !== null) return `${url.hostname} resolves to ${reason}`;
    }
    return null;
  }

  /**
   * The `lookup` for a delivery's connection to `url`'s host: the system's, refusing (before any
   * connection is made) when the name resolves to an internal address. Undefined for an allowed
   * host, which may resolve anywhere.
   */
  lookupFor(url: URL): typeof dnsLookup | undefined {
    if (this.isAllowedHost(url)) return undefined;
    return ((hostname: string, options: LookupOneOptions | LookupAllOptions | number, callback: LookupCallback) =>
      guardedLookup(this.dnsLookup, hostname, options, callback)) as unknown as typeof dnsLookup;
  }

  /** Why a connection to a literal address in `url` is refused, or null (names go through lookupFor). */
  literalRefusal(url: URL): string | null {
    if (this.isAllowedHost(url)) return null;
    const literal = literalAddress(url);
    return literal === undefined ? null : forbiddenAddress(literal);
  }
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** `lookup`, failing with RefusedAddressError when any address of the name is internal. */
const guardedLookup = (
  lookup: typeof dnsLookup,
  hostname: string,
  options: LookupOneOptions | LookupAllOptions | number,
  callback: LookupCallback,
): void => {
  const wanted = typeof options === 'number' ? { family: options } : options;
  lookup(hostname, { ...wanted, all: true }, (error, addresses) => {
    if (error) {
      callback(error, []);
      return;
    }
    for (const { address } of addresses) {
      const reason = forbiddenAddress(address);
      if (reason !== null) {
        callback(new RefusedAddressError(`${hostname} resolves to ${reason}`), []);
        return;
      }
    }
    if ((wanted as LookupAllOptions).all) callback(null, addresses);
    else if (addresses.length === 0)
      callback(Object.assign(new Error(`${hostname} does not resolve`), { code: 'ENOTFOUND' }), []);
    else callback(null, addresses[0].address, addresses[0].family);
  });
};
