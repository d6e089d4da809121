// What an endpoint URL may be: https anywhere, plain http only to this machine and only
// when the server runs for development (emulator or demo project), so a production store
// never posts its inventory in clear text. Nor may it point into the server's own network:
// an IP literal (in any notation) or a local name that is private, link-local, loopback and
// the like is refused here; names are checked again on their resolved addresses when
// connecting (connect-guard.ts). Loopback is the exception in the same development modes.
import { ValidationError } from '../errors.js';
import { urlHostKind } from './private-address.js';

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

export const PRIVATE_URL_MESSAGE = 'Webhook URL must not point to a private or local address';

export function checkEndpointUrl(raw: string, allowLocalHttp: boolean): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ValidationError('URL must be a full address such as https://example.com/hooks');
  }
  if (url.username || url.password) throw new ValidationError('URL must not contain a user name or password');
  const kind = urlHostKind(url);
  if (kind === 'private' || (kind === 'loopback' && !allowLocalHttp)) throw new ValidationError(PRIVATE_URL_MESSAGE);
  if (url.protocol === 'https:') return url.toString();
  if (url.protocol === 'http:' && allowLocalHttp && LOCAL_HOSTS.has(url.hostname)) return url.toString();
  throw new ValidationError(
    allowLocalHttp ? 'URL must use https (or http to localhost while developing)' : 'URL must use https',
  );
}
