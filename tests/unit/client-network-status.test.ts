// A request that gets no answer marks the server unreachable at once (the header says
// Offline); any answer from the server, an error status included, marks
// it reachable again; a saved copy from the service worker is no answer from the server.
import { describe, expect, it } from 'vitest';
import { ApiClient, SAVED_COPY_HEADER } from '../../client/lib/api-client.js';
import { noteServerAnswered, onReachabilityChange, serverUnreachable } from '../../client/lib/network-status.js';

function clientAnswering(answers: Array<Response | 'no network'>) {
  return new ApiClient({
    fetch: (async () => {
      const next = answers.shift();
      if (!next || next === 'no network') throw new TypeError('Failed to fetch');
      return next;
    }) as typeof fetch,
    sleep: async () => undefined,
  });
}

const json = (status: number, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(status < 400 ? { ok: true } : { error: 'Nope' }), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });

describe('network status from requests', () => {
  it('turns unreachable at the first request with no answer, and back at the next answer', async () => {
    noteServerAnswered();
    const changes: boolean[] = [];
    const stop = onReachabilityChange(() => changes.push(serverUnreachable()));
    const client = clientAnswering(['no network', 'no network', 'no network', json(200)]);
    await expect(client.get('/items')).rejects.toThrow('All retry attempts failed');
    expect(serverUnreachable()).toBe(true);
    await client.get('/items');
    expect(serverUnreachable()).toBe(false);
    // Told once each way, not once per failed attempt.
    expect(changes).toEqual([true, false]);
    stop();
  });

  it('counts an error status as an answer, and a saved copy as none', async () => {
    const client = clientAnswering(['no network', json(200, { [SAVED_COPY_HEADER]: '1' }), json(404)]);
    await client.get('/items');
    expect(serverUnreachable()).toBe(true);
    await expect(client.get('/items/x')).rejects.toThrow('Nope');
    expect(serverUnreachable()).toBe(false);
  });

  it('leaves a request the page aborted out of it', async () => {
    noteServerAnswered();
    const client = new ApiClient({
      fetch: (async () => {
        throw new DOMException('The user aborted a request.', 'AbortError');
      }) as typeof fetch,
    });
    await expect(client.get('/items')).rejects.toThrow('aborted');
    expect(serverUnreachable()).toBe(false);
  });
});
