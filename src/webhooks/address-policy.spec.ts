import { describe, expect, it } from 'vitest';
import { AddressPolicy, forbiddenAddress } from './address-policy.js';

describe('forbiddenAddress', () => {
  it.each([
    '127.0.0.1',
    '127.255.0.9',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.100.100.200',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fd00:ec2::254',
    'fc00::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:a9fe:a9fe',
    '64:ff9b::10.0.0.1',
    // Forms that carry an IPv4 address, refused whatever they carry.
    '::7f00:1',
    '::127.0.0.1',
    '::a9fe:a9fe',
    '::808:808',
    '::ffff:0:7f00:1',
    '::ffff:0:808:808',
    '64:ff9b::808:808',
    '64:ff9b:1::7f00:1',
    '64:ff9b:1::a9fe:a9fe',
    '2002:7f00:1::',
    '2002:a9fe:a9fe::1',
    '2002:808:808::1',
    '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    '2001::1',
    // Other ranges that are not global unicast, as ipaddr.js names them.
    '192.0.2.1',
    '198.51.100.7',
    '192.88.99.1',
    '192.175.48.1',
    '198.18.0.1',
    'fec0::1',
    '100::1',
    '2001:db8::1',
    '2001:2::1',
    '2001:20::1',
    '3fff::1',
    '5f00::1',
    'fe80::1%eth0',
  ])('refuses %s', (address) => {
    expect(forbiddenAddress(address)).toMatch(/internal address/);
  });

  it.each(['93.184.215.14', '8.8.8.8', '172.32.0.1', '2606:4700::1111', '2a00:1450:4001:81c::200e', '::ffff:8.8.8.8'])(
    'allows %s',
    (address) => {
      expect(forbiddenAddress(address)).toBeNull();
    },
  );

  it('refuses what is not an IP address', () => {
    expect(forbiddenAddress('example.org')).toMatch(/not an IP address/);
  });
});

describe('AddressPolicy.refusal', () => {
  const resolved: Record<string, string[]> = {
    'hooks.example.org': ['93.184.215.14', '2606:4700::1111'],
    'sneaky.example.org': ['93.184.215.14', '10.0.0.5'],
    localhost: ['127.0.0.1', '::1'],
  };
  const policy = new AddressPolicy(['127.0.0.1', 'receiver.internal', '[::1]'], async (hostname) => {
    const addresses = resolved[hostname];
    if (!addresses) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    return addresses;
  });
  const refusal = (url: string) => policy.refusal(new URL(url));

  it('accepts https to a public name, and http or any address for allowed hosts', async () => {
    expect(await refusal('https://hooks.example.org/museum')).toBeNull();
    expect(await refusal('http://127.0.0.1:8080/hook')).toBeNull();
    expect(await refusal('http://RECEIVER.internal/hook')).toBeNull();
    expect(await refusal('http://[::1]:9000/')).toBeNull();
  });

  it('refuses plain http, credentials, other schemes, internal literals and names that resolve inside', async () => {
    expect(await refusal('http://hooks.example.org/')).toMatch(
      /plain http is allowed only to the hosts in WEBHOOK_ALLOWED_HOSTS/,
    );
    expect(await refusal('https://user:pw@hooks.example.org/')).toMatch(/credentials/);
    expect(await refusal('ftp://hooks.example.org/')).toMatch(/must be https/);
    expect(await refusal('https://127.0.0.2/')).toMatch(/127\.0\.0\.2 is a loopback/);
    expect(await refusal('https://[::1]:8443/')).toBeNull(); // [::1] is allowed above
    expect(await refusal('https://[fe80::1]/')).toMatch(/internal/);
    expect(await refusal('https://169.254.169.254/latest/meta-data')).toMatch(/internal/);
    expect(await refusal('https://0x7f000002/')).toMatch(/127\.0\.0\.2 is a loopback/);
    expect(await refusal('https://localhost:8443/')).toMatch(/localhost resolves to 127\.0\.0\.1/);
    expect(await refusal('https://sneaky.example.org/')).toMatch(/resolves to 10\.0\.0\.5/);
    expect(await refusal('https://nowhere.example.org/')).toMatch(/does not resolve/);
  });
});
