// One URL in front of several server instances, as a load balancer puts it: each new TCP
// connection (HTTP or WebSocket) goes to the next instance in turn, and to the one after it
// when that one refuses (stopped for a deploy). Bytes are passed through untouched.
import net from 'node:net';

export interface TcpBalancer {
  port: number;
  url: string;
  close(): Promise<void>;
}

export async function startTcpBalancer(targetPorts: number[]): Promise<TcpBalancer> {
  let next = 0;
  const sockets = new Set<net.Socket>();

  const connectToAny = (client: net.Socket, tried: number) => {
    if (tried >= targetPorts.length) {
      client.destroy();
      return;
    }
    const port = targetPorts[next++ % targetPorts.length]!;
    const upstream = net.connect(port, '127.0.0.1');
    sockets.add(upstream);
    let connected = false;
    upstream.once('connect', () => {
      connected = true;
      client.pipe(upstream);
      upstream.pipe(client);
      client.resume();
    });
    upstream.on('error', () => {
      if (!connected) connectToAny(client, tried + 1);
      else client.destroy();
    });
    upstream.on('close', () => {
      sockets.delete(upstream);
      if (connected) client.destroy();
    });
    client.on('close', () => upstream.destroy());
  };

  const server = net.createServer((client) => {
    sockets.add(client);
    client.pause();
    client.on('error', () => undefined);
    client.on('close', () => sockets.delete(client));
    connectToAny(client, 0);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
