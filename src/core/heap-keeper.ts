// V8 lets its heap grow to several times the live size between full collections when a process allocates fast, as
// a long run does (every op's requests, answers and records), so most of a long run's resident memory would be
// garbage not yet collected (docs/scale.md). The keeper collects sooner: when the used heap has grown past the
// live size of the last full collection by a margin, it runs one. It never caps the heap (no out-of-memory risk at
// any size); it only collects earlier, and counts what that cost. It looks on a timer, and wherever long
// synchronous work asks between its passes (`collectBetweenPasses()`: computeMetrics' passes, each report file).
// It costs throughput (docs/scale.md has the numbers side by side), so a short run goes without it: `faultline run`
// sets FAULTLINE_HEAP_KEEPER=on for a run over the size caps or with --low-memory (never with --no-low-memory),
// and the run's server child inherits it; =report also prints what it did to stderr at exit.
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export interface HeapKeeperStats {
  /** Full collections the keeper ran, and the time they took (ms). */
  collections: number;
  collectMs: number;
}

export interface HeapKeeperOptions {
  /** How often the used heap is looked at. */
  everyMs?: number;
  /** Growth over the last live size that triggers a collection, as a share of it ... */
  growth?: number;
  /** ... and never less than this many bytes (a small heap is left to V8). */
  minGrowthBytes?: number;
}

interface Keeper {
  gc: () => void;
  live: number;
  growth: number;
  minGrowthBytes: number;
  stats: HeapKeeperStats;
  timer: NodeJS.Timeout;
}

let keeper: Keeper | undefined;

/** The `gc()` of `--expose-gc`, turned on from inside the process. */
function fullCollection(): () => void {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (exposed) return exposed;
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/**
 * V8's own `--semi-space-growth-factor`. bin/faultline.js sets it to 1 on its first line, so the young generation
 * stays at its start size (1 MB a semi-space, against up to 16 MB) while the CLI loads; a kept heap leaves it there
 * for the whole run (docs/scale.md: 25 MB less resident at 100,000 ops, for more frequent minor collections), and
 * every other command gives V8 its default back before it starts. The server child has no such first line: its
 * keeper holds the space at the size its modules' loading left (8 MB, against 32 MB; 30 MB less at 100,000 ops).
 * Only from inside the process: given on node's command line, V8 grows the space whatever the factor. Node 22's V8
 * grows it either way (the hold does nothing there); Node 20 and 24 honour it (test/unit/core/young-generation.test.ts).
 */
const V8_SEMI_SPACE_GROWTH = 2;
/** The factor that holds the space at the size it has. */
const HELD = 1;

function youngGenerationGrowth(factor: number): void {
  setFlagsFromString(`--semi-space-growth-factor=${factor}`);
}

/** Lets V8 grow its young generation again, as it does by itself. */
export function releaseYoungGeneration(): void {
  youngGenerationGrowth(V8_SEMI_SPACE_GROWTH);
}

/**
 * Starts the process's keeper when FAULTLINE_HEAP_KEEPER is on or report (once; later calls keep the first), which
 * holds the young generation where it is; otherwise releases the young generation.
 */
export function keepHeapSmall(options: HeapKeeperOptions = {}, env: NodeJS.ProcessEnv = process.env): void {
  if (keeper) return;
  if (env.FAULTLINE_HEAP_KEEPER !== 'on' && env.FAULTLINE_HEAP_KEEPER !== 'report') {
    releaseYoungGeneration();
    return;
  }
  youngGenerationGrowth(HELD);
  const { everyMs = 200, growth = 0.5, minGrowthBytes = 32 * 1024 * 1024 } = options;
  const timer = setInterval(collectIfGrown, everyMs);
  timer.unref();
  const stats = { collections: 0, collectMs: 0 };
  keeper = { gc: fullCollection(), live: usedHeap(), growth, minGrowthBytes, stats, timer };
  if (env.FAULTLINE_HEAP_KEEPER === 'report')
    process.on('exit', () => {
      const ms = Math.round(stats.collectMs);
      process.stderr.write(
        `faultline: heap keeper (pid ${process.pid}): ${stats.collections} full collections, ${ms} ms\n`,
      );
    });
}

function usedHeap(): number {
  return getHeapStatistics().used_heap_size;
}

/** The narrower margin of the run's end, and how many records apart a long pass asks (passCollector). */
const PASS_GROWTH = 0.15;
const PASS_EVERY = 2048;

/**
 * Between the passes of a run's end (metrics, each report file): the run's end makes only garbage on top of the
 * run's live state and no timer runs inside a pass, so it asks with a narrower margin than the keeper's own (with
 * the usual one the end added 29 MB to a 100,000-op run's peak; docs/scale.md).
 */
export function collectBetweenPasses(): void {
  collectIfGrown(PASS_GROWTH);
}

/**
 * For a long synchronous pass over every record (the leak scan, trace.jsonl): call the returned function once a
 * record. It asks between passes every PASS_EVERY records, so the pass's garbage does not pile up inside it.
 */
export function passCollector(): () => void {
  let records = 0;
  return () => {
    if (++records % PASS_EVERY === 0) collectBetweenPasses();
  };
}

/**
 * A full collection if the heap has grown enough since the last one (nothing without a keeper): by the keeper's
 * margin, or by `growth` of the live size (never less than its minimum in bytes).
 */
export function collectIfGrown(growth?: number): void {
  if (!keeper) return;
  const used = usedHeap();
  if (used < keeper.live + Math.max(keeper.live * (growth ?? keeper.growth), keeper.minGrowthBytes)) return;
  const start = performance.now();
  keeper.gc();
  keeper.stats.collectMs += performance.now() - start;
  keeper.stats.collections++;
  keeper.live = usedHeap();
}

/** What the keeper has done so far (undefined without one). */
export function heapKeeperStats(): HeapKeeperStats | undefined {
  return keeper && { ...keeper.stats };
}

/** Stops the keeper and gives V8 its young generation back (tests). */
export function stopHeapKeeper(): void {
  if (keeper) clearInterval(keeper.timer);
  keeper = undefined;
  releaseYoungGeneration();
}
