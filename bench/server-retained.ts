// Bytes the reference server child keeps per op in its stores that grow with a run, each beside the form it
// replaced, measured in one sitting: the payments API's charges (through its own POST route, as the dependency
// client calls it) in a table of Maps (what DependencyState keeps for any other table) and in its compact table;
// the charge feed's keys in an array of strings (what it kept) and as joined text; the fault engine's request count
// per attempt (core/logical-key.ts; run this file on an older build for its former figure: the 'after' lines then
// show that build's own stores); and the harness's copy of the effects as a run reads it after the drain
// (targets/world-mirror.ts): the array every effect was parsed back into before, the view read back on each pass
// now (the spill and its buffer are in both). Each store runs alone in a fresh child process with --expose-gc (a bench's own flag; src/ sets none)
// and reports heapUsed plus ArrayBuffers after a full collection, before and after the ops, over the ops.
// Prints one line per store; asserts nothing.
// Run: npm run bench:server-retained [-- --ops 100000]
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { paymentsApi } from '../mocks/apis/payments.ts';
import { EffectLedger } from '../mocks/ledger.ts';
import { DependencyState } from '../mocks/state.ts';
import { DEPENDENCY_URLS } from '../src/core/dependency-contract.ts';
import { AttemptOrdinals, requestKey } from '../src/core/logical-key.ts';
import { IDEMPOTENCY_HEADER } from '../src/core/wire.ts';
import { ChargeFeed } from '../src/server/charge-feed.ts';
import { WorldMirror } from '../src/targets/world-mirror.ts';
import { benchArgs, hidden, parseChoice, parseCount } from './args.ts';

/** An op's key as the tool's parsed arguments give it: a flat string of its own (the client's `idem-<op id>`). */
const keyOf = (i: number): string => JSON.parse(`"idem-op-${String(i).padStart(5, '0')}"`);

/** What each store does for op `i`; returns something that holds the store, so nothing is collected early. */
const STORES: Record<string, () => (i: number) => unknown | Promise<unknown>> = {
  'harness effects, an array (before)': () => mirrored((mirror) => [...mirror.effects()]),
  'harness effects, a view (after)': () => mirrored((mirror) => mirror.effects()),
  'charges, a Map (before)': () => charges(new DependencyState()),
  'charges, compact table (after)': () => charges(new DependencyState(paymentsApi.tables)),
  'feed keys, an array (before)': () => {
    const keys: string[] = [];
    return (i) => keys.push(keyOf(i)) && keys;
  },
  'feed keys, joined text (after)': () => {
    const feed = new ChargeFeed();
    return (i) => {
      feed.announce(keyOf(i));
      return feed;
    };
  },
  'request counts per attempt': () => {
    const seen = new AttemptOrdinals();
    return (i) => requestKey(JSON.parse(`"op-${String(i).padStart(5, '0')}"`), '1', seen) && seen;
  },
};

/** Op i charges its customer once through the payments API's POST route, keyed as the server's client keys it. */
function charges(state: DependencyState): (i: number) => Promise<unknown> {
  const ledger = new EffectLedger();
  ledger.streamOut();
  const post = paymentsApi.routes.find((r) => r.method === 'POST');
  if (!post) throw new Error('the payments API has no POST route');
  return async (i) => {
    const key = keyOf(i);
    const request = new Request(`${DEPENDENCY_URLS.payments}/v1/charges`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [IDEMPOTENCY_HEADER]: key },
      body: JSON.stringify({ customer_id: `cus_${i}`, amount_cents: 100 + (i % 50_000), currency: 'USD' }),
    });
    const response = await post.resolve(request, { ledger, state, idempotencyKey: key, traceId: `op-${i}` });
    if (response.status !== 201) throw new Error(`charge ${i}: ${response.status}`);
    return state;
  };
}

/**
 * A charge's effect event as the harness gets it from the child (parsed from IPC: strings of its own) into its
 * world mirror, and after the last op what a run reads of it.
 */
function mirrored(read: (mirror: WorldMirror) => unknown): (i: number) => unknown {
  const mirror = new WorldMirror();
  return (i) => {
    const n = String(i).padStart(6, '0');
    const effect = JSON.parse(
      `{"seq":${i + 1},"atMs":${1.8e12 + i * 3.7},"kind":"payment.charge","traceId":"op-${n}","attempt":1,"idempotencyKey":"idem-op-${n}","argsKey":"${(i * 2654435761).toString(16).padStart(16, '0').slice(-16)}","details":{"chargeId":"ch_${n}","amountCents":${100 + (i % 50_000)},"currency":"USD"}}`,
    );
    mirror.apply({ type: 'effect', effect });
    return i === ops - 1 ? read(mirror) : mirror;
  };
}

/** After a full collection, once the event loop has turned (finalization callbacks of undici's requests run). */
const retained = async () => {
  for (let turn = 0; turn < 3; turn++) {
    (globalThis as { gc?: () => void }).gc?.();
    await new Promise((done) => setTimeout(done, 50));
  }
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};

const { options } = benchArgs<{ ops: number; store?: string }>(
  'bench:server-retained',
  'bytes the reference server child keeps per op in its stores that grow with a run',
  (c) =>
    c
      .option('--ops <n>', 'ops per store', parseCount, 100_000)
      .addOption(hidden('--store <name>', parseChoice(Object.keys(STORES)))),
);
const name = options.store;
const ops = options.ops;
if (name) {
  const step = STORES[name]();
  const before = await retained();
  let held: unknown;
  for (let i = 0; i < ops; i++) held = await step(i);
  const after = await retained();
  console.log(JSON.stringify({ bytesPerOp: (after - before) / ops, held: held !== undefined }));
} else {
  console.log(`${ops} ops per store, each in its own process; load average ${loadavg()[0].toFixed(2)}`);
  for (const store of Object.keys(STORES)) {
    const run = spawnSync(
      process.execPath,
      [
        '--expose-gc',
        fileURLToPath(new URL('../bin/run-ts.js', import.meta.url)),
        fileURLToPath(import.meta.url),
      ].concat(['--store', store, '--ops', String(ops)]),
      { encoding: 'utf8' },
    );
    const out = run.stdout.trim().split('\n').at(-1) ?? '';
    const bytes = run.status === 0 ? (JSON.parse(out) as { bytesPerOp: number }).bytesPerOp : Number.NaN;
    console.log(
      `${store.padEnd(42)} ${Number.isNaN(bytes) ? `failed: ${run.stderr.trim()}` : `${bytes.toFixed(1)} B/op`}`,
    );
  }
  console.log(`load average at the end ${loadavg()[0].toFixed(2)}`);
}
