// Child process of the realtime benchmark: holds many WebSocket feed clients, so their
// work does not share the server's event loop, and notes when each event reached each
// client. The parent drives it over IPC (connect, reset, report, exit).
import WebSocket from 'ws';

type Command =
  | { cmd: 'connect'; url: string; token: string; count: number }
  | { cmd: 'reset' }
  | { cmd: 'report'; commits: Record<string, number> }
  | { cmd: 'exit' };

const clients = new Set<WebSocket>();
/** cursor -> receive times (epoch ms, sub-ms precision) across all clients. */
let received = new Map<string, number[]>();
let eventsSeen = 0;
let dropped = 0;

const now = () => performance.timeOrigin + performance.now();
const EVENT_PREFIX = '{"type":"event","cursor":"';

function open(url: string, token: string): Promise<void> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url);
    let ready = false;
    ws.on('open', () => ws.send(JSON.stringify({ type: 'auth', token })));
    ws.on('message', (data: Buffer) => {
      const t = now();
      // The server writes `type` then `cursor` first: read the cursor without parsing the whole message.
      const head = data.toString('latin1', 0, 64);
      if (head.startsWith(EVENT_PREFIX)) {
        const cursor = head.slice(EVENT_PREFIX.length, head.indexOf('"', EVENT_PREFIX.length));
        let times = received.get(cursor);
        if (!times) received.set(cursor, (times = []));
        times.push(t);
        eventsSeen++;
      } else if (!ready && head.startsWith('{"type":"hello"')) {
        ready = true;
        clients.add(ws);
        resolve();
      }
    });
    ws.on('close', () => {
      if (clients.delete(ws)) dropped++;
      if (!ready) resolve();
    });
    ws.on('error', () => undefined);
  });
}

async function connect(url: string, token: string, count: number): Promise<void> {
  // A few hundred handshakes at a time, as a fleet of screens coming back would.
  while (clients.size < count) {
    const wave = Math.min(200, count - clients.size);
    await Promise.all(Array.from({ length: wave }, () => open(url, token)));
  }
}

function report(commits: Record<string, number>) {
  const latencies: number[] = [];
  let missing = 0;
  for (const [cursor, committedAt] of Object.entries(commits)) {
    const times = received.get(cursor) ?? [];
    missing += Math.max(0, clients.size - times.length);
    for (const t of times) latencies.push(t - committedAt);
  }
  latencies.sort((a, b) => a - b);
  const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? NaN;
  return {
    samples: latencies.length,
    missing,
    p50: at(50),
    p95: at(95),
    p99: at(99),
    max: latencies[latencies.length - 1] ?? NaN,
  };
}

process.on('message', async (message: Command) => {
  switch (message.cmd) {
    case 'connect':
      await connect(message.url, message.token, message.count);
      process.send!({ type: 'connected', clients: clients.size, dropped });
      break;
    case 'reset':
      received = new Map();
      eventsSeen = 0;
      dropped = 0;
      process.send!({ type: 'reset' });
      break;
    case 'report':
      process.send!({ type: 'report', ...report(message.commits), eventsSeen, dropped, clients: clients.size });
      break;
    case 'exit':
      for (const ws of clients) ws.terminate();
      process.exit(0);
  }
});
process.send!({ type: 'started' });
