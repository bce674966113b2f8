// Feed server load on loopback, from this process against an `assay-feed` child process, on SQLite and
// on PostgreSQL: GET /feed/posts and POST /feed/post throughput and p99 latency (autocannon), then
// 1,000 socket.io clients each receiving a new post (time from the POST until the last client has it).
// `npm run bench -- feed`; FEED_BENCH_SECONDS (default 10) per load phase, FEED_BENCH_CLIENTS (1000).
import autocannon from 'autocannon';
import { join } from 'node:path';
import { io as connectClient, type Socket } from 'socket.io-client';
import { call, newUser, postgres, sampleRun, startFeed, stopPostgres, tempDir, type FeedProcess } from '../test/feed/helpers';

const seconds = Number(process.env['FEED_BENCH_SECONDS'] ?? 10);
const clients = Number(process.env['FEED_BENCH_CLIENTS'] ?? 1000);
const connections = Number(process.env['FEED_BENCH_CONNECTIONS'] ?? 20);

async function load(title: string, options: autocannon.Options): Promise<void> {
  const result = await autocannon({ ...options, duration: seconds, connections });
  const failures = result.errors + result.timeouts + result.non2xx;
  console.log(
    `  ${title.padEnd(26)} ${result.requests.average.toFixed(0).padStart(6)} req/s   p50 ${String(result.latency.p50).padStart(4)} ms   p99 ${String(result.latency.p99).padStart(4)} ms   ${result.requests.total} requests, ${failures} errors`,
  );
  if (failures > 0) process.exitCode = 1;
}

async function fanOut(feed: FeedProcess, token: string): Promise<void> {
  const sockets: Socket[] = [];
  const startedConnecting = Date.now();
  // Connect in batches so that the handshakes do not all land in one tick.
  for (let i = 0; i < clients; i += 100) {
    await Promise.all(
      Array.from({ length: Math.min(100, clients - i) }, () => {
        const socket = connectClient(feed.url, { auth: { token }, transports: ['websocket'], reconnection: false, forceNew: true });
        sockets.push(socket);
        return new Promise<void>((resolve, reject) => {
          socket.once('connect', () => resolve());
          socket.once('connect_error', reject);
        });
      }),
    );
  }
  const connectMs = Date.now() - startedConnecting;
  const times: number[] = [];
  try {
    for (let round = 0; round < 5; round++) {
      let received = 0;
      let sentAt = 0;
      const all = new Promise<number>((resolve) => {
        for (const socket of sockets) {
          socket.once('post:created', () => {
            if (++received === sockets.length) resolve(performance.now() - sentAt);
          });
        }
      });
      sentAt = performance.now();
      const r = await call(feed.url, 'POST', '/feed/post', { token, body: { title: `fan-out ${round}`, run: sampleRun() } });
      if (r.status !== 201) throw new Error(`POST failed: ${r.status} ${r.text}`);
      times.push(await all);
    }
  } finally {
    for (const socket of sockets) socket.disconnect();
  }
  times.sort((a, b) => a - b);
  console.log(`  ${clients} socket clients connected in ${connectMs} ms; POST → last client has the post: median ${times[2]!.toFixed(0)} ms (5 posts: ${times.map((t) => t.toFixed(0)).join(', ')} ms)`);
}

async function bench(name: string, databaseUrl: string): Promise<void> {
  const feed = await startFeed({ env: { DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' } });
  try {
    const user = await newUser(feed.url, 'bench');
    for (let i = 0; i < 200; i++) await call(feed.url, 'POST', '/feed/post', { token: user.token, body: { title: `seed ${i}`, body: 'seed post', run: sampleRun() } });
    console.log(`${name} (${seconds} s per phase, ${connections} connections, 200 seeded posts, node ${process.version}):`);
    const headers = { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' };
    await load('GET /feed/posts (20/page)', { url: `${feed.url}/feed/posts`, headers });
    await load('POST /feed/post (with run)', {
      url: `${feed.url}/feed/post`,
      method: 'POST',
      headers,
      body: JSON.stringify({ title: 'bench post', body: 'a result', run: sampleRun() }),
    });
    await fanOut(feed, user.token);
  } finally {
    await feed.stop();
  }
}

async function main(): Promise<void> {
  await bench('SQLite', `sqlite:${join(tempDir(), 'feed.db')}`);
  let pgUrl: string | undefined;
  try {
    pgUrl = await (await postgres()).newDatabase();
  } catch (error) {
    console.log(`PostgreSQL: skipped (${error instanceof Error ? error.message : String(error)})`);
  }
  if (pgUrl) await bench('PostgreSQL', pgUrl);
}

main()
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => stopPostgres());
