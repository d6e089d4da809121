// The connect-time half of the private-address rule (private-address.ts): before a webhook
// connection is opened, the host is resolved here and every address it resolves to must be
// public (loopback too while the server runs in emulator/demo mode). The socket is then
// handed exactly those checked addresses through its `lookup` option, so nothing resolves
// the name again between the check and the connect (no DNS rebinding), and a refused name
// never gets as far as a socket. The URL check at create and update time cannot see what a
// name resolves to, nor catch endpoints saved before it existed; this check does.
import dns from 'node:dns';
import net, { type LookupFunction } from 'node:net';
import { addressKind } from './private-address.js';

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Every address of a host name (tests stub it). */
export type Resolve = (hostname: string) => Promise<ResolvedAddress[]>;

/** What a guard is made from. */
export interface ConnectPolicy {
  /** Loopback addresses allowed: emulator/demo mode only (WebhookConfig.allowLocalHttp). */
  allowLoopback: boolean;
  /** Names answered from this list instead of DNS, like curl's --resolve. Set by tests in code, never from the environment. */
  hosts?: Record<string, string[]>;
}

export interface ConnectGuard {
  allowLoopback: boolean;
  resolve: Resolve;
}

/** All of the system resolver's answers (as a socket's own lookup would get them), in its order. */
export const systemResolve: Resolve = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

export function connectGuard(policy: ConnectPolicy, resolve: Resolve = systemResolve): ConnectGuard {
  const hosts = policy.hosts;
  if (!hosts || Object.keys(hosts).length === 0) return { allowLoopback: policy.allowLoopback, resolve };
  return {
    allowLoopback: policy.allowLoopback,
    resolve: async (hostname) => {
      const fixed = hosts[hostname.toLowerCase()];
      return fixed ? fixed.map((address) => ({ address, family: net.isIP(address) })) : resolve(hostname);
    },
  };
}

/** The only error a refused target reports: no errno, no port, nothing to map a network with. */
export const REFUSED_PRIVATE = 'refused: private address';

export class RefusedAddress extends Error {
  readonly code = 'ERR_PRIVATE_ADDRESS';
  constructor() {
    super(REFUSED_PRIVATE);
  }
}

const allowed = (address: string, guard: ConnectGuard) => {
  const kind = addressKind(address);
  return kind === 'public' || (kind === 'loopback' && guard.allowLoopback);
};

/**
 * The addresses a connection to `host` may use: the literal itself, or everything the name
 * resolves to. Refused (RefusedAddress) when any of them is not allowed: a name with one
 * private answer among public ones could still be steered to it.
 */
export async function checkedAddresses(host: string, guard: ConnectGuard): Promise<ResolvedAddress[]> {
  const family = net.isIP(host);
  const addresses = family ? [{ address: host, family }] : await guard.resolve(host);
  if (addresses.length === 0) throw Object.assign(new Error(`no address for ${host}`), { code: 'ENOTFOUND' });
  if (!addresses.every((a) => allowed(a.address, guard))) throw new RefusedAddress();
  return addresses;
}

/** A socket `lookup` that answers with addresses already checked, never asking DNS again. */
export function fixedLookup(addresses: ResolvedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, addresses);
    else callback(null, addresses[0]!.address, addresses[0]!.family);
  };
}
