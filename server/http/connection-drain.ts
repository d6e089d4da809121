// The first step of a graceful shutdown: for a short window every HTTP answer carries
// `Connection: close`, so each kept-alive connection ends cleanly after its current answer
// and the client opens its next request elsewhere (the other instance, or this one once it is
// back). Without it, closing the server closes idle kept-alive sockets at once, and a request
// the client is sending on one at that moment is lost with ECONNRESET, never read by the
// server (HTTP/1.1's keep-alive race). Meanwhile the health check answers 503, so a load
// balancer stops opening new connections here before the server stops listening (a
// connection still waiting in the listen queue then would be reset).
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export interface ConnectionDrain {
  /**
   * Starts answering with `Connection: close` and resolves once no HTTP connection is open
   * (feed sockets are not counted: the feed closes them with 1012) or after `maxMs`.
   */
  drain(maxMs: number): Promise<void>;
}

const drainingServers = new WeakSet<Server>();

/** Whether `server` is draining before a shutdown (the health check answers 503 then). */
export function isDraining(server: Server): boolean {
  return drainingServers.has(server);
}

export function connectionDrain(server: Server): ConnectionDrain {
  const open = new Set<Socket>();
  let draining = false;
  server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
  // An upgraded socket (the WebSocket feed) is no longer an HTTP connection.
  server.on('upgrade', (_request, socket: Socket) => open.delete(socket));
  // First among the request listeners, so the header is set before Fastify answers.
  server.prependListener('request', (_request, response) => {
    if (draining && !response.headersSent) response.setHeader('connection', 'close');
  });
  return {
    async drain(maxMs) {
      draining = true;
      drainingServers.add(server);
      const until = Date.now() + maxMs;
      while (open.size > 0 && Date.now() < until) await sleep(20);
    },
  };
}
