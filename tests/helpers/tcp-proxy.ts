// A TCP proxy between the app and PostgreSQL for fault tests: it can cut every connection
// and refuse new ones for a while (a network partition or a database restart seen from the
// app), and it can drop one connection right after forwarding a COMMIT, before the answer
// comes back (a write whose commit outcome the app cannot know). The machine's shared
// PostgreSQL is never touched.
import net from 'node:net';

export interface TcpProxy {
  port: number;
  /** The target URL with host and port replaced by the proxy's. */
  url(targetUrl: string): string;
  /** Destroys every open connection and refuses new ones until `restore()`. */
  cut(): void;
  restore(): void;
  /**
   * The next transaction that sent SQL containing one of `markers` (e.g. "insert into events")
   * is cut off right after its COMMIT is forwarded: PostgreSQL commits, the app never hears back.
   */
  dropAfterCommitOf(...markers: string[]): Promise<void>;
  /** Connections open right now. */
  readonly open: number;
  close(): Promise<void>;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const pairs = new Set<{ client: net.Socket; upstream: net.Socket }>();
  let refusing = false;
  let commitTrap: { markers: string[]; fired: () => void } | null = null;

  const server = net.createServer((client) => {
    if (refusing) {
      client.destroy();
      return;
    }
    const upstream = net.connect(targetPort, targetHost);
    const pair = { client, upstream };
    pairs.add(pair);
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    upstream.on('data', (chunk) => client.write(chunk));
    let markedTransaction = false;
    client.on('data', (chunk: Buffer) => {
      upstream.write(chunk);
      if (!commitTrap) return;
      const text = chunk.toString('utf8').toLowerCase();
      if (commitTrap.markers.some((marker) => text.includes(marker))) markedTransaction = true;
      // A simple-protocol Query message whose text is "commit" (what Kysely sends).
      const isCommit =
        chunk[0] === 0x51 && chunk.subarray(5).toString('utf8').replace(/\0+$/, '').trim().toLowerCase() === 'commit';
      if (isCommit && markedTransaction) {
        const { fired } = commitTrap;
        commitTrap = null;
        // end() flushes the COMMIT to PostgreSQL first; the app's side is gone before the answer.
        client.destroy();
        upstream.end();
        fired();
      } else if (isCommit) {
        markedTransaction = false;
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;

  return {
    port,
    url(targetUrl) {
      const url = new URL(targetUrl);
      url.hostname = '127.0.0.1';
      url.port = String(port);
      return url.toString();
    },
    cut() {
      refusing = true;
      for (const { client, upstream } of pairs) {
        client.destroy();
        upstream.destroy();
      }
      pairs.clear();
    },
    restore() {
      refusing = false;
    },
    dropAfterCommitOf(...markers) {
      return new Promise<void>(
        (resolve) => (commitTrap = { markers: markers.map((m) => m.toLowerCase()), fired: resolve }),
      );
    },
    get open() {
      return pairs.size;
    },
    async close() {
      refusing = true;
      for (const { client, upstream } of pairs) {
        client.destroy();
        upstream.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
