// A lean HTTP/1.1 client for webhook POSTs, over kept-alive connections (one request at a
// time on each, no pipelining). The deliverer's sender thread spends most of its time on
// HTTP, and node:http's client (request and response objects, streams, header checks, the
// agent's bookkeeping) cost about twice the CPU per message of what is needed: write the
// request as one buffer, read the status line and the few headers we use, skip the body.
// Responses may carry a Content-Length or be chunked, close-delimited, or preceded by 1xx
// interim answers. A connection is reused only after a complete answer that did not ask to
// close it, and idle ones are closed after IDLE_SOCKET_MS, before a typical server's own
// keep-alive timeout. A request that meets a reused connection closed by the receiver
// meanwhile (no byte of an answer) fails with `reusedSocket` set, for the caller to send once
// more on a fresh one (the race node:http documents as well).
//
// Every new connection first goes through the caller's ConnectGuard (connect-guard.ts): the
// host's addresses are resolved and checked before any socket exists, and the socket gets
// exactly those. Kept-alive connections are pooled per guard, so one made under a guard
// that allows loopback is never reused under one that does not.
import net from 'node:net';
import tls from 'node:tls';
import { checkedAddresses, fixedLookup, type ConnectGuard, type ResolvedAddress } from './connect-guard.js';

export interface Answer {
  status: number;
  retryAfter: string | null;
}

export class TimedOut extends Error {}

/** Idle connections are closed after this long. */
export const IDLE_SOCKET_MS = 4000;
/** An answer's status line and headers may not be longer (the body is skipped, never kept). */
const MAX_HEAD_BYTES = 64 * 1024;
/** Destinations (scheme, host, port) whose idle connections are kept track of; more are forgotten. */
const MAX_ORIGINS = 1000;

interface Origin {
  guard: ConnectGuard;
  secure: boolean;
  host: string;
  port: number;
  /** Kept-alive connections, the most recently used last. */
  idle: Connection[];
}

interface Target {
  origin: Origin;
  /** The request's first lines up to (not including) the per-message headers. */
  prefix: string;
}

const origins = new Map<string, Origin>();
const targets = new Map<string, Target>();
/** A number per guard, for the pools' keys. */
const guardIds = new WeakMap<ConnectGuard, number>();
let lastGuardId = 0;
let sweeper: NodeJS.Timeout | null = null;

class NetworkError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly reusedSocket = false,
  ) {
    super(message);
  }
}

const CRLFCRLF = Buffer.from('\r\n\r\n');

/**
 * One connection and the answer it is reading. Parsing state lives here: `head` until the
 * blank line, then the body by length, by chunks, or until the connection closes.
 */
class Connection {
  readonly socket: net.Socket;
  idleSince = 0;
  dead = false;
  private uses = 0;
  private exchange: {
    resolve(answer: Answer): void;
    reject(error: Error): void;
    timer: NodeJS.Timeout;
    reused: boolean;
    gotBytes: boolean;
  } | null = null;
  private head: Buffer | null = null;
  private answer: Answer | null = null;
  private keepAlive = true;
  private body: 'length' | 'chunked' | 'close' | null = null;
  private left = 0;
  private chunkState: 'size' | 'data' | 'data-end' | 'trailer' = 'size';
  private line = '';

  /** `addresses`: the host's, checked by the origin's guard; the socket connects to these and resolves nothing. */
  constructor(
    private readonly origin: Origin,
    addresses: ResolvedAddress[],
  ) {
    // The host name stays the socket's host, for TLS's server name and certificate check.
    const lookup = fixedLookup(addresses);
    this.socket = origin.secure
      ? tls.connect({ host: origin.host, port: origin.port, lookup, servername: net.isIP(origin.host) ? undefined : origin.host, ALPNProtocols: ['http/1.1'] })
      : net.connect({ host: origin.host, port: origin.port, lookup });
    this.socket.setNoDelay(true);
    this.socket.on('data', (data: Buffer) => this.onData(data));
    this.socket.on('error', (error: NodeJS.ErrnoException) => this.close(new NetworkError(error.message, error.code ?? 'ERR_SOCKET', this.reusedAndSilent(error.code))));
    this.socket.on('close', () => {
      if (this.body === 'close' && this.answer) return this.finish();
      this.close(new NetworkError('the connection closed before the answer ended', 'ECONNRESET', this.reusedAndSilent('ECONNRESET')));
    });
  }

  /** Sends one request; resolves with the answer once its body has been read. */
  send(request: Buffer, deadline: number): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.close(new TimedOut()), Math.max(0, deadline - Date.now()));
      this.exchange = { resolve, reject, timer, reused: this.uses > 0, gotBytes: false };
      this.uses += 1;
      this.head = null;
      this.answer = null;
      this.body = null;
      this.socket.write(request);
    });
  }

  /** Ends the connection, failing the request in progress with `error`. */
  close(error: Error | null): void {
    if (!this.dead) {
      this.dead = true;
      this.socket.destroy();
    }
    const exchange = this.exchange;
    this.exchange = null;
    if (exchange) {
      clearTimeout(exchange.timer);
      exchange.reject(error ?? new NetworkError('connection closed', 'ECONNRESET'));
    }
  }

  /** A kept-alive connection the receiver closed before answering anything: worth one more try on a fresh one. */
  private reusedAndSilent(code: string | undefined): boolean {
    return !!this.exchange?.reused && !this.exchange.gotBytes && (code === 'ECONNRESET' || code === 'EPIPE');
  }

  private onData(data: Buffer): void {
    const exchange = this.exchange;
    if (!exchange) return this.close(null); // bytes nobody asked for: the connection cannot be trusted
    exchange.gotBytes = true;
    let rest: Buffer | null = data;
    while (rest && rest.length > 0 && this.exchange) {
      rest = this.answer ? this.readBody(rest) : this.readHead(rest);
    }
    // More bytes than the answer: the connection cannot be trusted with another request.
    if (rest && rest.length > 0) this.close(null);
  }

  /** Reads the status line and headers; returns the bytes after them (null: wait for more). */
  private readHead(data: Buffer): Buffer | null {
    const before = this.head?.length ?? 0;
    const head = this.head ? Buffer.concat([this.head, data]) : data;
    const end = head.indexOf(CRLFCRLF, Math.max(0, before - 3));
    if (end < 0) {
      if (head.length > MAX_HEAD_BYTES) this.close(new NetworkError('the answer\'s headers are too long', 'ERR_HEAD_TOO_LONG'));
      else this.head = head;
      return null;
    }
    this.head = null;
    const lines = head.toString('latin1', 0, end).split('\r\n');
    const status = /^HTTP\/1\.([01]) (\d{3})/.exec(lines[0] ?? '');
    if (!status) {
      this.close(new NetworkError('the answer is not HTTP/1.x', 'ERR_NOT_HTTP'));
      return null;
    }
    const code = Number(status[2]);
    const rest = head.subarray(end + 4);
    // Interim answers (100 Continue, 103 Early Hints) come before the real one.
    if (code >= 100 && code < 200 && code !== 101) return rest;
    let contentLength: number | null = null;
    let chunked = false;
    let connection = '';
    let retryAfter: string | null = null;
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i]!;
      const colon = line.indexOf(':');
      if (colon <= 0) continue;
      const name = line.slice(0, colon).trim().toLowerCase();
      if (name !== 'content-length' && name !== 'transfer-encoding' && name !== 'connection' && name !== 'retry-after') continue;
      const value = line.slice(colon + 1).trim();
      if (name === 'content-length') contentLength = /^\d+$/.test(value) ? Number(value) : NaN;
      else if (name === 'transfer-encoding') chunked = /(^|,)\s*chunked\s*$/i.test(value);
      else if (name === 'connection') connection = value.toLowerCase();
      else retryAfter ??= value;
    }
    this.answer = { status: code, retryAfter };
    this.keepAlive = status[1] === '1' ? !/(^|,)\s*close\s*(,|$)/.test(connection) : /(^|,)\s*keep-alive\s*(,|$)/.test(connection);
    if (code === 204 || code === 304) this.body = 'length';
    else if (chunked) this.body = 'chunked';
    else if (contentLength !== null && Number.isFinite(contentLength)) this.body = 'length';
    else this.body = 'close';
    this.left = this.body === 'length' && code !== 204 && code !== 304 ? contentLength! : 0;
    this.chunkState = 'size';
    this.line = '';
    if (this.body === 'close') this.keepAlive = false;
    if (this.body === 'length' && this.left === 0) this.finish();
    return rest;
  }

  /** Skips body bytes; returns what follows the body (null: all consumed). */
  private readBody(data: Buffer): Buffer | null {
    if (this.body === 'close') return null; // read until the connection closes
    if (this.body === 'length') {
      if (data.length < this.left) {
        this.left -= data.length;
        return null;
      }
      const rest = data.subarray(this.left);
      this.left = 0;
      this.finish();
      return rest;
    }
    let i = 0;
    while (i < data.length) {
      if (this.chunkState === 'data') {
        const take = Math.min(this.left, data.length - i);
        i += take;
        this.left -= take;
        if (this.left === 0) {
          this.chunkState = 'data-end';
          this.line = '';
        }
        continue;
      }
      const newline = data.indexOf(10, i);
      if (newline < 0) {
        this.line += data.toString('latin1', i);
        if (this.line.length > MAX_HEAD_BYTES) this.close(new NetworkError('a chunk line is too long', 'ERR_CHUNK'));
        return null;
      }
      const line = (this.line + data.toString('latin1', i, newline)).replace(/\r$/, '');
      this.line = '';
      i = newline + 1;
      if (this.chunkState === 'data-end') {
        this.chunkState = 'size'; // the CRLF after a chunk's data
      } else if (this.chunkState === 'size') {
        const size = parseInt(line.split(';')[0]!.trim(), 16);
        if (!Number.isFinite(size) || size < 0) {
          this.close(new NetworkError('bad chunk size in the answer', 'ERR_CHUNK'));
          return null;
        }
        if (size === 0) this.chunkState = 'trailer';
        else {
          this.chunkState = 'data';
          this.left = size;
        }
      } else if (line === '') {
        // The blank line after the last chunk (and any trailers): the answer is complete.
        this.finish();
        return data.subarray(i);
      }
    }
    return null;
  }

  private finish(): void {
    const exchange = this.exchange;
    const answer = this.answer;
    this.exchange = null;
    this.answer = null;
    if (!exchange || !answer) return;
    clearTimeout(exchange.timer);
    if (this.keepAlive && !this.dead) {
      this.idleSince = performance.now();
      // An idle connection does not keep the process (or thread) alive, as node:http's agent does.
      this.socket.unref();
      this.origin.idle.push(this);
      sweeper ??= setInterval(sweep, IDLE_SOCKET_MS / 4).unref();
    } else this.close(null);
    exchange.resolve(answer);
  }
}

/** Closes connections idle for too long (and those the receiver closed meanwhile). */
function sweep(): void {
  const now = performance.now();
  let any = false;
  for (const origin of origins.values()) {
    origin.idle = origin.idle.filter((c) => {
      const keep = !c.dead && now - c.idleSince < IDLE_SOCKET_MS;
      if (!keep) c.close(null);
      return keep;
    });
    any ||= origin.idle.length > 0;
  }
  if (!any && sweeper) {
    clearInterval(sweeper);
    sweeper = null;
  }
}

function targetOf(url: string, guard: ConnectGuard): Target {
  let guardId = guardIds.get(guard);
  if (guardId === undefined) guardIds.set(guard, (guardId = ++lastGuardId));
  const targetKey = `${guardId} ${url}`;
  let target = targets.get(targetKey);
  if (target) return target;
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new NetworkError(`Unsupported protocol ${parsed.protocol}`, 'ERR_PROTOCOL');
  const secure = parsed.protocol === 'https:';
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  const port = Number(parsed.port) || (secure ? 443 : 80);
  const key = `${guardId} ${parsed.protocol}//${host}:${port}`;
  let origin = origins.get(key);
  if (!origin) {
    if (origins.size >= MAX_ORIGINS) {
      for (const o of origins.values()) for (const c of o.idle) c.close(null);
      origins.clear();
    }
    origin = { guard, secure, host, port, idle: [] };
    origins.set(key, origin);
  }
  if (targets.size >= MAX_ORIGINS) targets.clear();
  // The URL parser leaves no CR, LF or space in the path or host.
  target = { origin, prefix: `POST ${parsed.pathname}${parsed.search} HTTP/1.1\r\nhost: ${parsed.host}\r\n` };
  targets.set(targetKey, target);
  return target;
}

/**
 * POSTs a JSON body with the given extra headers (names and values plain ASCII, no line
 * breaks) and reads the answer within `deadline` (a Date.now() time), on a kept-alive
 * connection unless `fresh`; a new connection only to addresses `guard` allows. Rejects
 * with TimedOut, RefusedAddress, or an error carrying a `code` (and `reusedSocket` for the
 * race described above).
 */
export function postJson(url: string, headers: Array<[string, string]>, body: string, deadline: number, guard: ConnectGuard, fresh = false): Promise<Answer> {
  let target: Target;
  try {
    target = targetOf(url, guard);
  } catch (error) {
    return Promise.reject(error instanceof NetworkError ? error : new NetworkError(`Invalid URL ${url}`, 'ERR_INVALID_URL'));
  }
  let head = `${target.prefix}content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n`;
  for (const [name, value] of headers) {
    if (/[\r\n]/.test(value)) return Promise.reject(new NetworkError(`Header ${name} has a line break`, 'ERR_HEADER'));
    head += `${name}: ${value}\r\n`;
  }
  head += '\r\n';
  const headLength = Buffer.byteLength(head, 'latin1');
  const request = Buffer.allocUnsafe(headLength + Buffer.byteLength(body));
  request.write(head, 0, 'latin1');
  request.write(body, headLength, 'utf8');
  const { origin } = target;
  let connection = fresh ? undefined : origin.idle.pop();
  while (connection && (connection.dead || performance.now() - connection.idleSince >= IDLE_SOCKET_MS)) {
    connection.close(null);
    connection = origin.idle.pop();
  }
  if (connection) {
    connection.socket.ref();
    return connection.send(request, deadline);
  }
  return beforeDeadline(checkedAddresses(origin.host, origin.guard), deadline).then((addresses) => new Connection(origin, addresses).send(request, deadline));
}

/** The name's resolution counts against the message's timeout (a lookup cannot be cancelled; its late answer is dropped). */
function beforeDeadline<T>(work: Promise<T>, deadline: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new TimedOut()), Math.max(0, deadline - Date.now()));
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** Closes every idle connection (tests, shutdown). */
export function closeIdleConnections(): void {
  for (const origin of origins.values()) for (const c of origin.idle.splice(0)) c.close(null);
}
