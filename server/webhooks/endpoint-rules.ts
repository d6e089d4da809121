// What an endpoint URL may be: https anywhere, plain http only to this machine and only
// when the server runs for development (emulator or demo project), so a production store
// never posts its inventory in clear text.
import { ValidationError } from '../errors.js';

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

export function checkEndpointUrl(raw: string, allowLocalHttp: boolean): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ValidationError('URL must be a full address such as https://example.com/hooks');
  }
  if (url.username || url.password) throw new ValidationError('URL must not contain a user name or password');
  if (url.protocol === 'https:') return url.toString();
  if (url.protocol === 'http:' && allowLocalHttp && LOCAL_HOSTS.has(url.hostname)) return url.toString();
  throw new ValidationError(
    allowLocalHttp ? 'URL must use https (or http to localhost while developing)' : 'URL must use https',
  );
}
