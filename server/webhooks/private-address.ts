// Which addresses a webhook may reach. A webhook URL is chosen by whoever manages the
// store, and the server posts to it from inside its own network: without this check a URL
// such as https://169.254.169.254/ (cloud metadata) or https://10.0.0.5:5432/ turns the
// delivery log into a view of the private network. Only public unicast addresses pass;
// loopback is told apart because emulator/demo mode allows it (the tests' receivers).
//
// Classification uses ipaddr.js (the library fastify's proxy-addr relies on) rather than
// node's net.BlockList: it keeps the IANA special-purpose ranges for IPv4 and IPv6 for us
// (private, link-local, CGNAT, multicast, reserved, IPv4-mapped, 6to4, Teredo, NAT64...), so
// the rule here can be an allowlist ("unicast" only) instead of a blocklist we maintain.
import net from 'node:net';
import ipaddr from 'ipaddr.js';

export type AddressKind = 'public' | 'loopback' | 'private';

/** 2000::/3, the only IPv6 space handed out for global unicast: anything outside (IPv4-compatible ::a.b.c.d included) is refused. */
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');

/** The kind of an IP address as node writes it (dns.lookup, net.isIP). Not an address, or unparsable: private (fail closed). */
export function addressKind(address: string): AddressKind {
  if (!net.isIP(address)) return 'private';
  let ip: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    ip = ipaddr.parse(address);
  } catch {
    return 'private';
  }
  // ::ffff:127.0.0.1 reaches 127.0.0.1: judge the IPv4 address inside.
  if (ip instanceof ipaddr.IPv6 && ip.isIPv4MappedAddress()) ip = ip.toIPv4Address();
  const range = ip.range();
  if (range === 'loopback') return 'loopback';
  if (ip instanceof ipaddr.IPv6 && !ip.match(GLOBAL_UNICAST_V6)) return 'private';
  return range === 'unicast' ? 'public' : 'private';
}

/**
 * The kind of a URL's host when it can be told without DNS: an IP literal, or a name that
 * always means this machine (localhost, *.localhost). Null for any other name, which is
 * checked on its resolved addresses when connecting (connect-guard.ts).
 *
 * The WHATWG URL parser (new URL) has already turned every IPv4 notation into dotted
 * decimal (2130706433, 0x7f000001, 0177.0.0.1 and 127.1 all become 127.0.0.1) and IPv6
 * literals into their compressed form in brackets, so only those two forms reach here.
 */
export function urlHostKind(url: URL): AddressKind | null {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (net.isIP(host)) return addressKind(host);
  const name = host.toLowerCase().replace(/\.$/, '');
  if (name === 'localhost' || name.endsWith('.localhost')) return 'loopback';
  return null;
}
