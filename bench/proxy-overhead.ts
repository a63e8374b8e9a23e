// What a Toxiproxy adds on loopback, measured side by side in one run: bulk throughput (MB/s) and the added round
// trip of the embedded proxy (in its own process) against a direct connection and, with `--real URL`, against a
// real Toxiproxy; rounds alternate the sides so a change in the machine's load falls on all of them. Also bulk
// through a zero-delay latency toxic (the toxic path) and how exactly a 20 ms latency toxic lands. Prints numbers
// and the load average; asserts nothing. Run: npm run bench [-- --real http://127.0.0.1:8474 [--real-pid PID]]
import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import {
  dropProxies,
  loadAverage,
  proxyOn,
  REAL_HINT,
  realSide,
  startEmbeddedSide,
  type ToxiproxySide,
} from './toxiproxy-sides.ts';

const ROUNDS = 5;
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
const median = (values: number[]) => quantile(values, 0.5);

/** Sequential 64-byte echo round trips, in ms. */
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

/** MB/s of BULK_BYTES sent by the sender and drained by this client. */
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
      while (sent < BULK_BYTES && !socket.destroyed) {
        sent += block.length;
        if (!socket.write(block)) return void socket.once('drain', pump);
      }
    };
    pump();
  });
});

/** The ports one side offers: each path of the measurement, direct or through its proxies. */
interface Ports {
  echo: number;
  bulk: number;
  /** Bulk through a latency toxic of 0 ms: every chunk takes the toxic chain. */
  toxicBulk?: number;
  /** Echo through a LATENCY_MS latency toxic. */
  lag?: number;
}

async function proxiedPorts(side: ToxiproxySide, echoPort: number, senderPort: number): Promise<Ports> {
  const ports = {
    echo: await proxyOn(side, 'bench_echo', echoPort),
    bulk: await proxyOn(side, 'bench_bulk', senderPort),
    toxicBulk: await proxyOn(side, 'bench_toxic_bulk', senderPort),
    lag: await proxyOn(side, 'bench_lag', echoPort),
  };
  const toxic = (proxy: string, latency: number) =>
    fetch(new URL(`/proxies/${proxy}/toxics`, side.url), {
      method: 'POST',
      body: JSON.stringify({ type: 'latency', attributes: { latency } }),
    });
  await toxic('bench_toxic_bulk', 0);
  await toxic('bench_lag', LATENCY_MS);
  return ports;
}

interface Samples {
  label: string;
  ports: Ports;
  roundTrips: number[];
  bulk: number[];
  toxicBulk: number[];
  /** The proxy process's CPU µs per MB of each bulk run (sides whose CPU time the bench can read). */
  cpuPerMb: number[];
  side?: ToxiproxySide;
}

async function main(): Promise<void> {
  const real = await realSide(
    'bench',
    'what a Toxiproxy adds on loopback: bulk throughput and round trip, embedded against direct and a real one',
  );
  const embedded = await startEmbeddedSide();
  const echoPort = await listen(echo);
  const senderPort = await listen(sender);
  const samples = (label: string, ports: Ports, side?: ToxiproxySide): Samples => ({
    label,
    ports,
    side,
    roundTrips: [],
    bulk: [],
    toxicBulk: [],
    cpuPerMb: [],
  });
  const sides = [samples('direct', { echo: echoPort, bulk: senderPort })];
  for (const side of [embedded, real]) {
    if (side) sides.push(samples(side.label, await proxiedPorts(side, echoPort, senderPort), side));
  }
  const cpuUs = async (side: Samples) => {
    const usage = await side.side?.cpu?.();
    return usage && usage.user + usage.system;
  };
  console.log(`load average at start: ${loadAverage()}`);

  // Warm every path, then rounds that rotate which side goes first.
  for (const { ports } of sides) {
    await roundTrips(ports.echo, 300);
    await bulk(ports.bulk);
    if (ports.toxicBulk) await bulk(ports.toxicBulk);
    if (ports.lag) await roundTrips(ports.lag, 10);
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < sides.length; i++) {
      const side = sides[(round + i) % sides.length];
      side.roundTrips.push(...(await roundTrips(side.ports.echo, ROUND_TRIPS / ROUNDS)));
      const before = await cpuUs(side);
      side.bulk.push(await bulk(side.ports.bulk));
      const after = await cpuUs(side);
      if (before !== undefined && after !== undefined) side.cpuPerMb.push((after - before) / (BULK_BYTES / 1e6));
      if (side.ports.toxicBulk) side.toxicBulk.push(await bulk(side.ports.toxicBulk));
    }
  }
  const lagged = new Map<string, number[]>();
  for (const side of sides)
    if (side.ports.lag) lagged.set(side.label, await roundTrips(side.ports.lag, LATENCY_SAMPLES));

  const ms = (value: number) => `${value.toFixed(3)} ms`;
  const mbs = (values: number[]) =>
    `${values.map((v) => v.toFixed(0)).join(' / ')} MB/s (median ${median(values).toFixed(0)})`;
  const [direct] = sides;
  const added = (side: Samples) => median(side.roundTrips) - median(direct.roundTrips);
  console.log(`round trip, 64 B echo, ${ROUND_TRIPS} samples per side in ${ROUNDS} alternating rounds`);
  for (const side of sides) {
    const extra = side === direct ? '' : `  added p50 +${ms(added(side))}`;
    console.log(
      `  ${side.label.padEnd(9)} p50 ${ms(median(side.roundTrips))}  p99 ${ms(quantile(side.roundTrips, 0.99))}${extra}`,
    );
  }
  console.log(`bulk, ${BULK_BYTES / 2 ** 20} MiB per run, one run per side per round (1 MB = 10^6 bytes)`);
  for (const side of sides) {
    const cpu = side.cpuPerMb.length > 0 ? `; proxy CPU ${median(side.cpuPerMb).toFixed(0)} µs per MB` : '';
    console.log(`  ${side.label.padEnd(9)} ${mbs(side.bulk)}${cpu}`);
    if (side.toxicBulk.length > 0)
      console.log(`  ${`${side.label}, through a 0 ms latency toxic`} ${mbs(side.toxicBulk)}`);
  }
  const [, emb, rl] = sides;
  console.log(`  embedded / direct ${(median(emb.bulk) / median(direct.bulk)).toFixed(2)}`);
  console.log('ratios embedded / real Toxiproxy, medians measured side by side in this run');
  const ratio = (value: (side: Samples) => number, goal: string) =>
    rl ? `${(value(emb) / value(rl)).toFixed(2)}  (goal ${goal})` : `n/a (${REAL_HINT})`;
  console.log(`  bulk MB/s            ${ratio((side) => median(side.bulk), '>= 1.00')}`);
  console.log(`  bulk MB/s, toxic     ${ratio((side) => median(side.toxicBulk), '>= 1.00')}`);
  console.log(`  added round trip p50 ${ratio(added, '<= 0.50')}`);
  const cpuRatio = rl?.cpuPerMb.length ? (median(emb.cpuPerMb) / median(rl.cpuPerMb)).toFixed(2) : 'n/a';
  console.log(
    `  proxy CPU per MB     ${rl ? cpuRatio : `n/a (${REAL_HINT})`}${rl && !rl.cpuPerMb.length ? ' (give --real-pid PID)' : ''}`,
  );
  console.log(
    `latency toxic ${LATENCY_MS} ms, ${LATENCY_SAMPLES} samples: error = observed - own proxied p50 - ${LATENCY_MS} ms`,
  );
  for (const side of sides.slice(1)) {
    const errors = lagged.get(side.label)!.map((sample) => sample - median(side.roundTrips) - LATENCY_MS);
    console.log(
      `  ${side.label.padEnd(9)} p50 ${ms(median(errors))}  p90 ${ms(quantile(errors, 0.9))}  p99 ${ms(quantile(errors, 0.99))}`,
    );
  }
  console.log(`load average at end: ${loadAverage()}`);

  if (real) await dropProxies(real);
  embedded.stop();
  echo.close();
  sender.close();
}

await main();
