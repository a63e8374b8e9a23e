// What the embedded proxy costs with no toxic, and how exactly a latency toxic lands, measured side by side in
// one run on loopback. Prints numbers; asserts nothing. Run: node bin/run-ts.js bench/proxy-overhead.ts
import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { startEmbeddedToxiproxy } from '../src/toxiproxy/server.ts';

const ROUND_TRIPS = 3000;
const BULK_BYTES = 256 * 1024 * 1024;
const LATENCY_SAMPLES = 200;
const LATENCY_MS = 20;

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

async function dial(port: number): Promise<Socket> {
  const socket = connect({ port, host: '127.0.0.1', noDelay: true });
  await new Promise((resolve) => socket.once('connect', resolve));
  return socket;
}

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

async function roundTrips(port: number, count: number): Promise<number[]> {
  const socket = await dial(port);
  const samples: number[] = [];
  const message = Buffer.alloc(64, 'r');
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    await new Promise<void>((resolve) => {
      let got = 0;
      const onData = (data: Buffer) => {
        got += data.length;
        if (got >= message.length) {
          socket.off('data', onData);
          resolve();
        }
      };
      socket.on('data', onData);
      socket.write(message);
    });
    samples.push(performance.now() - start);
  }
  socket.destroy();
  return samples;
}

/** MB/s of BULK_BYTES sent by the server and drained by the client. */
async function bulk(port: number): Promise<number> {
  const socket = await dial(port);
  const start = performance.now();
  let got = 0;
  await new Promise<void>((resolve) => {
    socket.on('data', (data: Buffer) => {
      got += data.length;
      if (got >= BULK_BYTES) resolve();
    });
    socket.write('go');
  });
  const seconds = (performance.now() - start) / 1000;
  socket.destroy();
  return BULK_BYTES / 1e6 / seconds;
}

const echo = createServer((socket) => {
  socket.setNoDelay(true);
  socket.on('error', () => {});
  socket.pipe(socket);
});
const sender = createServer((socket) => {
  socket.on('error', () => {});
  socket.once('data', () => {
    const block = Buffer.alloc(64 * 1024, 'b');
    let sent = 0;
    const pump = () => {
      while (sent < BULK_BYTES) {
        sent += block.length;
        if (!socket.write(block)) return void socket.once('drain', pump);
      }
    };
    pump();
  });
});
const echoPort = await listen(echo);
const senderPort = await listen(sender);
const toxiproxy = await startEmbeddedToxiproxy({ seed: 1 });
const api = (path: string, body: unknown) =>
  fetch(toxiproxy.url + path, { method: 'POST', body: JSON.stringify(body) }).then((response) => response.json());
const portOf = (proxy: { listen: string }) => Number(proxy.listen.split(':').pop());
const echoProxy = portOf(
  await api('/proxies', { name: 'echo', listen: '127.0.0.1:0', upstream: `127.0.0.1:${echoPort}` }),
);
const bulkProxy = portOf(
  await api('/proxies', { name: 'bulk', listen: '127.0.0.1:0', upstream: `127.0.0.1:${senderPort}` }),
);
const lagProxy = portOf(
  await api('/proxies', { name: 'lag', listen: '127.0.0.1:0', upstream: `127.0.0.1:${echoPort}` }),
);
await api('/proxies/lag/toxics', { type: 'latency', attributes: { latency: LATENCY_MS } });

// Warm up both paths, then interleave so machine noise hits both alike.
await roundTrips(echoPort, 300);
await roundTrips(echoProxy, 300);
const direct: number[] = [];
const proxied: number[] = [];
for (let round = 0; round < 6; round++) {
  direct.push(...(await roundTrips(echoPort, ROUND_TRIPS / 6)));
  proxied.push(...(await roundTrips(echoProxy, ROUND_TRIPS / 6)));
}
const directMbs: number[] = [];
const proxiedMbs: number[] = [];
for (let round = 0; round < 3; round++) {
  directMbs.push(await bulk(senderPort));
  proxiedMbs.push(await bulk(bulkProxy));
}
// Latency error: the toxic's round trip minus the plain proxied one, minus the configured delay.
// The toxic's code path gets the same warm-up as the others (first samples pay for JIT compilation).
await roundTrips(lagProxy, 10);
const lagged = await roundTrips(lagProxy, LATENCY_SAMPLES);
const base = quantile(proxied, 0.5);
const errors = lagged.map((sample) => sample - base - LATENCY_MS);

const ms = (value: number) => `${value.toFixed(3)} ms`;
const median = (values: number[]) => quantile(values, 0.5);
console.log(`round trip (64 B, ${ROUND_TRIPS} samples each)`);
console.log(`  direct   p50 ${ms(median(direct))}  p99 ${ms(quantile(direct, 0.99))}`);
console.log(`  proxied  p50 ${ms(median(proxied))}  p99 ${ms(quantile(proxied, 0.99))}`);
console.log(
  `  overhead p50 +${ms(median(proxied) - median(direct))}  p99 +${ms(quantile(proxied, 0.99) - quantile(direct, 0.99))}  (target p50 <= +0.150 ms)`,
);
console.log(`bulk (${BULK_BYTES / 1e6} MB, best of 3)`);
console.log(`  direct  ${Math.max(...directMbs).toFixed(0)} MB/s`);
console.log(`  proxied ${Math.max(...proxiedMbs).toFixed(0)} MB/s`);
console.log(`  ratio   ${(Math.max(...proxiedMbs) / Math.max(...directMbs)).toFixed(2)}  (target >= 0.40)`);
console.log(
  `latency toxic ${LATENCY_MS} ms (${LATENCY_SAMPLES} samples, error = observed - proxied p50 - ${LATENCY_MS} ms)`,
);
console.log(
  `  error p50 ${ms(quantile(errors, 0.5))}  p90 ${ms(quantile(errors, 0.9))}  p99 ${ms(quantile(errors, 0.99))}  (target |p50| <= 0.5 ms, p99 <= 1.5 ms)`,
);

await toxiproxy.close();
echo.close();
sender.close();
