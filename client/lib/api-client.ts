// The one way the client talks to /api: sends the Firebase ID token, an Idempotency-Key on
// every write (the same key on each retry of one call, so a retry never applies twice),
// retries a failed call (3 attempts, waiting 1 s x attempt, so a server restarting or a
// dropped connection is ridden out; a 429 or 503 waits for its Retry-After), and turns
// failures into messages a screen can show as they are:
//   - the `error` field of a JSON error body when there is one;
//   - 'HTTP error! status: N' when the error body is JSON without an `error` field;
//   - 'Network error' when a response body is not JSON;
//   - 'All retry attempts failed' when no attempt got a response at all.
// 4xx answers other than 429 are final: they are not retried.
import { takeEarly } from './first-data';
import { noteRequestFailed, noteServerAnswered } from './network-status';

export const MAX_ATTEMPTS = 3;
export const BACKOFF_MS = 1000;
/** A Retry-After longer than this is capped: the user is waiting on the other side. */
export const MAX_RETRY_AFTER_MS = 30_000;
const RECENT_GETS = 50;

export type TokenSource = () => Promise<string | null>;

export class ApiError extends Error {
  constructor(
    message: string,
    /** HTTP status, or 0 when no response arrived. */
    readonly status: number,
    /** The parsed JSON body of the error response, when there was one. */
    readonly body: unknown = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface RequestOptions {
  body?: unknown;
  headers?: Record<string, string>;
  /** Sent as If-Match (the version the user loaded). */
  ifMatch?: number | string;
  /** The write's Idempotency-Key when the caller keeps it (the offline outbox); else a new one. */
  idempotencyKey?: string;
  /** How many attempts (the outbox replays one try at a time); MAX_ATTEMPTS when absent. */
  attempts?: number;
  signal?: AbortSignal;
}

export interface ApiResponse<T> {
  data: T;
  status: number;
  headers: Headers;
}

export interface ApiClientDeps {
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  newKey?: () => string;
  baseUrl?: string;
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Milliseconds a Retry-After header asks for (seconds or an HTTP date); null when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | null {
  if (!header) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, MAX_RETRY_AFTER_MS);
  const date = Date.parse(header);
  if (Number.isNaN(date)) return null;
  return Math.min(Math.max(0, date - now), MAX_RETRY_AFTER_MS);
}

async function readBody(res: Response): Promise<{ json: unknown; isJson: boolean; empty: boolean }> {
  const text = await res.text();
  if (!text) return { json: null, isJson: false, empty: true };
  try {
    return { json: JSON.parse(text), isJson: true, empty: false };
  } catch {
    return { json: null, isJson: false, empty: false };
  }
}

function errorFromBody(status: number, body: { json: unknown; isJson: boolean; empty: boolean }): ApiError {
  if (!body.isJson) return new ApiError(body.empty ? `HTTP error! status: ${status}` : 'Network error', status);
  const message = (body.json as { error?: unknown } | null)?.error;
  return new ApiError(
    typeof message === 'string' && message ? message : `HTTP error! status: ${status}`,
    status,
    body.json,
  );
}

/**
 * The service worker's mark on an answer it gave from its cache because the network did not
 * answer in time (vite.config.ts, NetworkFirst with a 3 s timeout) or at all: the data may be
 * older than the server's.
 */
export const SAVED_COPY_HEADER = 'x-stockroom-saved-copy';
let savedCopies = 0;
/** How many answers so far were the service worker's saved copies (a live query reads again after one). */
export function savedCopiesServed(): number {
  return savedCopies;
}

/** Whether the latest answer was a saved copy: the screen may show one, and the header says so. */
let lastWasSavedCopy = false;
const savedCopyListeners = new Set<() => void>();

/** True from a saved copy until the server answers again (a screen showing one reads again every few seconds). */
export function showingSavedCopy(): boolean {
  return lastWasSavedCopy;
}

/** Calls `listener` when showingSavedCopy changes; returns the unsubscribe (useSyncExternalStore's shape). */
export function onSavedCopyChange(listener: () => void): () => void {
  savedCopyListeners.add(listener);
  return () => savedCopyListeners.delete(listener);
}

function noteAnswer(res: Response): void {
  const saved = res.headers.has(SAVED_COPY_HEADER);
  if (saved) savedCopies += 1;
  else noteServerAnswered();
  if (saved === lastWasSavedCopy) return;
  lastWasSavedCopy = saved;
  for (const listener of savedCopyListeners) listener();
}

export class ApiClient {
  private tokenSource: TokenSource = async () => null;
  private readonly fetchImpl: typeof fetch;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly newKey: () => string;
  private readonly baseUrl: string;

  constructor(deps: ApiClientDeps = {}) {
    this.fetchImpl = deps.fetch ?? ((...args) => fetch(...args));
    this.sleep = deps.sleep ?? defaultSleep;
    this.newKey = deps.newKey ?? (() => crypto.randomUUID());
    this.baseUrl = deps.baseUrl ?? '/api';
  }

  /** The latest GET paths this client asked for (newest last), for the offline cache to warm. */
  recentGets(): string[] {
    return [...this.gets];
  }

  private readonly gets = new Set<string>();

  /** Where ID tokens come from (set by the app once auth is loaded). */
  setTokenSource(source: TokenSource): void {
    this.tokenSource = source;
  }

  async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    const upper = method.toUpperCase();
    if (upper === 'GET') {
      this.gets.delete(path);
      this.gets.add(path);
      if (this.gets.size > RECENT_GETS) this.gets.delete(this.gets.values().next().value!);
    }
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    if (options.ifMatch !== undefined) headers['if-match'] = String(options.ifMatch);
    if (WRITE_METHODS.has(upper)) headers['idempotency-key'] = options.idempotencyKey ?? this.newKey();
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);

    let lastError: ApiError | null = null;
    const attempts = Math.max(1, options.attempts ?? MAX_ATTEMPTS);
    for (let attempt = 1; attempt <= attempts; attempt++) {
      const final = attempt === attempts;
      // Offline, a token past its hour cannot be refreshed: the request still goes out, so the
      // service worker can answer a GET from its cache (the server would answer 401).
      const token = await this.tokenSource().catch(() => null);
      let res: Response;
      try {
        // A returning user's first screen may have asked already (first-data.ts).
        const started = attempt === 1 && upper === 'GET' ? await takeEarly(path) : null;
        res =
          started ??
          (await this.fetchImpl(this.baseUrl + path, {
            method: upper,
            headers: token ? { ...headers, authorization: `Bearer ${token}` } : headers,
            body,
            signal: options.signal,
          }));
      } catch (error) {
        if ((error as Error)?.name === 'AbortError') throw error;
        noteRequestFailed();
        lastError = new ApiError('All retry attempts failed', 0);
        if (!final) await this.sleep(BACKOFF_MS * attempt);
        continue;
      }
      noteAnswer(res);
      if (res.ok) {
        if (res.status === 204) return { data: undefined as T, status: res.status, headers: res.headers };
        const parsed = await readBody(res);
        if (parsed.empty) return { data: undefined as T, status: res.status, headers: res.headers };
        if (!parsed.isJson) throw new ApiError('Network error', res.status);
        return { data: parsed.json as T, status: res.status, headers: res.headers };
      }
      const error = errorFromBody(res.status, await readBody(res));
      const retryable = res.status === 429 || res.status >= 500;
      if (!retryable || final) throw error;
      lastError = error;
      // 429 (rate limit) and 503 (database restarting, server shutting down) say when to come back.
      const asked = res.status === 429 || res.status === 503 ? retryAfterMs(res.headers.get('retry-after')) : null;
      const wait = asked ?? BACKOFF_MS * attempt;
      await this.sleep(wait);
    }
    throw lastError ?? new ApiError('All retry attempts failed', 0);
  }

  /** A file the server sends (a CSV export): its body as a Blob; errors as for any call, without retries. */
  async blob(path: string): Promise<Blob> {
    const token = await this.tokenSource();
    const res = await this.fetchImpl(this.baseUrl + path, {
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
    if (!res.ok) throw errorFromBody(res.status, await readBody(res));
    return res.blob();
  }

  async get<T>(path: string, options?: RequestOptions): Promise<T> {
    return (await this.request<T>('GET', path, options)).data;
  }

  async post<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T> {
    return (await this.request<T>('POST', path, { ...options, body })).data;
  }

  async put<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T> {
    return (await this.request<T>('PUT', path, { ...options, body })).data;
  }

  async delete<T = void>(path: string, options?: RequestOptions): Promise<T> {
    return (await this.request<T>('DELETE', path, options)).data;
  }
}

/** The app's client; the auth session plugs its token source in. */
export const api = new ApiClient();

export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof Error && error.message) return error.message;
  return fallback;
}

export function isStatus(error: unknown, status: number): error is ApiError {
  return error instanceof ApiError && error.status === status;
}
