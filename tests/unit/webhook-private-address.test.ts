// Webhook URLs that point into the server's own network are refused when an endpoint is
// saved (endpoint-rules.ts, private-address.ts), whatever notation the address is written
// in: the WHATWG URL parser turns decimal, hex, octal and short IPv4 forms into dotted
// decimal first, and this shows it does for each. Loopback passes only in emulator/demo mode.
import { describe, expect, it } from 'vitest';
import { checkEndpointUrl, PRIVATE_URL_MESSAGE } from '../../server/webhooks/endpoint-rules.js';
import { addressKind, urlHostKind } from '../../server/webhooks/private-address.js';

/** Loopback in every notation a URL may carry. */
const LOOPBACK_URLS = [
  'https://127.0.0.1/hook',
  'https://127.8.9.10/hook',
  'https://2130706433/hook', // decimal
  'https://0x7f000001/hook', // hex
  'https://0x7F.0.0.1/hook',
  'https://0177.0.0.1/hook', // octal
  'https://017700000001/hook',
  'https://127.1/hook', // short form
  'https://0x7f.1/hook',
  'https://127.0.0.1./hook', // trailing dot
  'https://%31%32%37.0.0.1/hook', // percent-encoded
  'https://127.0.0.1:8080/hook',
  'https://[::1]/hook',
  'https://[0:0:0:0:0:0:0:1]/hook',
  'https://[::ffff:127.0.0.1]/hook', // IPv4-mapped, dotted
  'https://[::ffff:7f00:1]/hook', // IPv4-mapped, hex
  'https://localhost/hook',
  'https://LOCALHOST./hook',
  'https://shop.localhost/hook',
];

/** Private, link-local, shared, reserved, multicast: never reachable, in any mode. */
const PRIVATE_URLS = [
  'https://10.0.0.5/hook',
  'https://167772165/hook', // 10.0.0.5, decimal
  'https://0xa000005/hook', // 10.0.0.5, hex
  'https://012.0.0.5/hook', // 10.0.0.5, octal
  'https://10.5/hook', // 10.0.0.5, short
  'https://10.255.255.255/hook',
  'https://172.16.0.1/hook',
  'https://172.31.255.255/hook',
  'https://0xac100001/hook', // 172.16.0.1
  'https://192.168.1.1/hook',
  'https://0300.0250.1.1/hook', // 192.168.1.1, octal
  'https://169.254.169.254/latest/meta-data/', // cloud metadata
  'https://2852039166/latest/meta-data/', // the same, decimal
  'https://100.64.0.1/hook', // carrier-grade NAT
  'https://100.127.255.255/hook',
  'https://0.0.0.0/hook',
  'https://0/hook',
  'https://0.1.2.3/hook',
  'https://224.0.0.1/hook', // multicast
  'https://239.255.255.250/hook',
  'https://255.255.255.255/hook',
  'https://240.0.0.1/hook', // reserved
  'https://198.18.0.1/hook', // benchmarking
  'https://[::]/hook',
  'https://[fc00::1]/hook', // unique local
  'https://[fd12:3456:789a::1]/hook',
  'https://[fe80::1]/hook', // link-local
  'https://[ff02::1]/hook', // multicast
  'https://[fec0::1]/hook', // old site-local
  'https://[::ffff:10.0.0.5]/hook', // IPv4-mapped private
  'https://[::ffff:a9fe:a9fe]/hook', // IPv4-mapped metadata
  'https://[::127.0.0.1]/hook', // IPv4-compatible (deprecated)
  'https://[64:ff9b::a00:5]/hook', // NAT64 of 10.0.0.5
  'https://[2002:a00:5::1]/hook', // 6to4 of 10.0.0.5
  'https://[2001:db8::1]/hook', // documentation
];

const PUBLIC_URLS = [
  'https://hooks.example.com/stockroom',
  'https://8.8.8.8/hook',
  'https://134744072/hook', // 8.8.8.8, decimal: the notation alone is not the problem
  'https://172.15.255.255/hook', // just outside 172.16/12
  'https://172.32.0.1/hook',
  'https://100.63.255.255/hook', // just outside 100.64/10
  'https://100.128.0.1/hook',
  'https://11.0.0.1/hook', // just outside 10/8
  'https://169.253.255.255/hook',
  'https://192.169.0.1/hook',
  'https://[2606:4700:4700::1111]/hook',
  'https://localhost.example.com/hook', // a name, checked on its addresses when connecting
];

describe('webhook URL address check', () => {
  it('the URL parser puts every IPv4 notation in dotted form before the check', () => {
    for (const url of [
      'https://2130706433/',
      'https://0x7f000001/',
      'https://0177.0.0.1/',
      'https://127.1/',
      'https://017700000001/',
      'https://0x7f.1/',
      'https://127.0.0.1./',
    ]) {
      expect(new URL(url).hostname, url).toBe('127.0.0.1');
    }
    expect(new URL('https://[::ffff:127.0.0.1]/').hostname).toBe('[::ffff:7f00:1]');
    expect(new URL('https://[0:0:0:0:0:0:0:1]/').hostname).toBe('[::1]');
  });

  it('outside emulator/demo mode, refuses loopback and private addresses in every notation', () => {
    for (const url of [...LOOPBACK_URLS, ...PRIVATE_URLS]) {
      expect(() => checkEndpointUrl(url, false), url).toThrow(PRIVATE_URL_MESSAGE);
    }
    expect(() => checkEndpointUrl('http://10.0.0.5/hook', false)).toThrow(PRIVATE_URL_MESSAGE);
  });

  it('in emulator/demo mode, allows loopback and still refuses private addresses', () => {
    for (const url of LOOPBACK_URLS) expect(() => checkEndpointUrl(url, true), url).not.toThrow();
    expect(checkEndpointUrl('http://127.0.0.1:4000/hook', true)).toBe('http://127.0.0.1:4000/hook');
    for (const url of PRIVATE_URLS) expect(() => checkEndpointUrl(url, true), url).toThrow(PRIVATE_URL_MESSAGE);
  });

  it('accepts public addresses and host names', () => {
    for (const url of PUBLIC_URLS) {
      expect(() => checkEndpointUrl(url, false), url).not.toThrow();
      expect(urlHostKind(new URL(url)), url).not.toBe('private');
    }
    expect(urlHostKind(new URL('https://hooks.example.com/'))).toBeNull();
  });

  it('classifies addresses as the resolver writes them', () => {
    for (const address of ['127.0.0.1', '127.255.255.254', '::1', '::ffff:127.0.0.1'])
      expect(addressKind(address), address).toBe('loopback');
    for (const address of [
      '10.0.0.5',
      '172.20.1.1',
      '192.168.0.10',
      '169.254.169.254',
      '100.64.1.1',
      '0.0.0.0',
      '224.0.0.251',
      '255.255.255.255',
      '::',
      'fd00::5',
      'fe80::1%eth0',
      'ff05::2',
      '::ffff:192.168.0.1',
      '64:ff9b::a00:5',
      'not an address',
      '',
    ]) {
      expect(addressKind(address), address).toBe('private');
    }
    for (const address of ['8.8.8.8', '93.184.215.14', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e'])
      expect(addressKind(address), address).toBe('public');
  });
});
