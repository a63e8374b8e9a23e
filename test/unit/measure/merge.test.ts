// Shard plus merge equals a single run, in every count: synthetic histories (no processes) for a multi-profile run
// judged once as one run, and again as shards split by the shard rule, written as shard.json, merged.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CANARIES, CANARY_MARKERS } from '../../../mocks/canaries.ts';
import type { AttemptRecord, FaultWindow, History, OpRecord } from '../../../src/core/history.ts';
import { keptHistory } from '../../../src/core/kept-text.ts';
import type { Effect } from '../../../src/core/ledger.ts';
import { ownsOp, type Shard, shardOrder } from '../../../src/core/shard.ts';
import { assessCalibration, machineDelayMs } from '../../../src/measure/calibration.ts';
import { findLeaks } from '../../../src/measure/leaks.ts';
import {
  checkShards,
  type MergedRun,
  mergeHistories,
  mergeShards,
  type ShardInput,
} from '../../../src/measure/merge.ts';
import { computeMetrics } from '../../../src/measure/metrics.ts';
import type { ProfileReport, RunReport } from '../../../src/measure/run-report.ts';
import { parseShardOutput, type ShardOutput } from '../../../src/measure/shard-format.ts';
import { isTimeUpperBound } from '../../../src/measure/thresholds.ts';
import { buildProfileReport, buildRunReport } from '../../../src/measure/verdict.ts';
import { type LoadedProfile, loadProfile } from '../../../src/profile/load.ts';
import { judgingOf, metricsOptionsFor, thresholdsFor } from '../../../src/run/judging.ts';
import { runShare, shardOutput, shardProfiles } from '../../../src/run/shard-output.ts';

const T0 = 1_700_000_000_000;
const NAMES = ['network-reset', 'baseline', 'dependency-5xx', 'rate-limit', 'sse-cut'];
const shipped = (name: string) => fileURLToPath(new URL(`../../../chaos-profiles/${name}.yaml`, import.meta.url));
const PROFILES: LoadedProfile[] = NAMES.map((n) => loadProfile(shipped(n)));

function lcg(seed: number): () => number {
  let s = seed;
  return () => {
    s = (Math.imul(s, 1103515245) + 12345) & 0x7fffffff;
    return s / 0x80000000;
  };
}

/**
 * A run's history with something in every metric: retries, failures, infos, duplicates, ghosts, lost effects, an
 * unattributed effect, a fault window with a recovery, breaker and transport events, decisions. `start` moves it.
 */
function syntheticHistory(seed: number, ops = 240, start = T0): History {
  const rand = lcg(seed);
  const effects: Effect[] = [];
  const history: History = {
    startMs: start,
    endMs: start + ops * 25 + 3000,
    ops: [],
    attempts: [],
    faults: [{ id: 'f1', seam: 'dependency', kind: 'http-5xx', onMs: start + 1500, offMs: start + 3000, hits: 41 }],
    effects,
    decisions: Array.from({ length: 7 }, (_, i) => ({ stream: 'workload', what: 'tool', value: i })),
    breaker: [{ key: 'create_payment', atMs: start + 1800, state: 'open' }],
    transportEvents: [{ atMs: start + 2100, kind: 'sse-disconnected', message: 'SSE stream disconnected' }],
  };
  let seq = 0;
  for (let i = 0; i < ops; i++) {
    const opId = `op-${String(i).padStart(5, '0')}`;
    // A fraction of a ms per op keeps start times distinct, as the sub-ms run clock does.
    const opStart = start + 100 + i * 25 + Math.floor(rand() * 10) + 0.25 + i / 1024;
    const inWindow = opStart > start + 1500 && opStart < start + 3000;
    const tries = inWindow ? 1 + Math.floor(rand() * 3) : 1;
    const sideEffecting = rand() < 0.5;
    let t = opStart;
    const attempts: AttemptRecord[] = [];
    for (let n = 1; n <= tries; n++) {
      const ok = n === tries && rand() < 0.8;
      const dur = 3 + Math.floor(rand() * 200) + 0.5;
      attempts.push({
        opId,
        attempt: n,
        startMs: t,
        endMs: t + dur,
        ok,
        ...(!ok && { category: 'DEPENDENCY', errorCode: n % 2 ? 'DEPENDENCY.UNAVAILABLE' : 'DEPENDENCY.TIMEOUT' }),
        ...(!ok && n % 2 === 0 && { retryAfterMs: 100 }),
        next: n === tries ? 'done' : 'retry',
        // Every fifth op ran as a task (a recreated one when it took several attempts): task counts merge too.
        ...(i % 5 === 0 && { task: { status: ok ? 'completed' : 'working', resumedPolls: n - 1 } }),
      });
      t += dur + 20;
    }
    const last = attempts[attempts.length - 1];
    const outcome = last.ok ? 'ok' : rand() < 0.5 ? 'fail' : 'info';
    const op: OpRecord = {
      opId,
      tool: sideEffecting ? 'create_payment' : 'search_documents',
      sideEffecting,
      startMs: opStart,
      endMs: last.endMs,
      outcome,
      attempts: tries,
      failedAttempts: attempts.filter((a) => !a.ok).length,
      visible: `result of ${opId}`,
      ...(sideEffecting && { argsKey: `cus_${i}` }),
    };
    history.ops!.push(op);
    history.attempts!.push(...attempts);
    if (sideEffecting) {
      // Mostly one effect; sometimes none (lost, or a correct no-effect failure), sometimes two (duplicate).
      const r = rand();
      const count = r < 0.1 ? 0 : r < 0.2 ? 2 : outcome === 'ok' || rand() < 0.3 ? 1 : 0;
      for (let e = 0; e < count; e++) {
        effects.push({ seq: ++seq, atMs: last.endMs - 1, kind: 'payment.charge', traceId: opId });
      }
    }
  }
  effects.push({ seq: ++seq, atMs: start + 2500, kind: 'notification.send' });
  // A ledger numbers effects in the order they happened.
  effects.sort((a, b) => a.atMs - b.atMs);
  effects.forEach((e, i) => {
    e.seq = i + 1;
  });
  history.ops!.sort((a, b) => a.startMs - b.startMs);
  history.attempts!.sort((a, b) => a.startMs - b.startMs);
  return history;
}

/** A profile's report as runProfile builds it. */
function report(loaded: LoadedProfile, history: History): ProfileReport {
  const { profile } = loaded;
  return buildProfileReport({
    name: profile.name,
    description: profile.description,
    file: loaded.file,
    seed: profile.seed,
    policy: profile.client.policy,
    history,
    expect: thresholdsFor(profile, profile.client.policy),
    decisionLogSha256: `log-${profile.name}`,
    metricsOptions: metricsOptionsFor(profile),
    notes: [`note from running ${profile.name}`],
  });
}

function runOf(profiles: LoadedProfile[], histories: Record<string, History>): RunReport {
  return buildRunReport({
    seed: 7,
    startedAt: new Date(T0),
    durationMs: 60_000,
    profiles: profiles.map((l) => report(l, histories[l.profile.name])),
  });
}

const HISTORIES: Record<string, History> = Object.fromEntries(
  PROFILES.map((l, i) => [l.profile.name, syntheticHistory(100 + i, 200 + 17 * i)]),
);
const SINGLE = runOf(PROFILES, HISTORIES);

/** What each shard process would write, through JSON as it travels, for a run split into n shards. */
function shardRun(n: number, seed?: number, runId?: string): ShardInput[] {
  return Array.from({ length: n }, (_, k) => {
    const shard: Shard = { index: k + 1, count: n };
    const mine = shardProfiles(PROFILES, shard).profiles;
    const histories = Object.fromEntries(mine.map((l) => [l.profile.name, HISTORIES[l.profile.name]]));
    const output = shardOutput(runShare(shard, PROFILES, runId), runOf(mine, histories), histories, seed);
    const parsed = parseShardOutput(JSON.parse(JSON.stringify(output)));
    if ('problem' in parsed) throw new Error(parsed.problem);
    return { label: `shard-${k}`, shard: parsed.shard };
  });
}

function expectSameAsSingle(merged: MergedRun): void {
  expect(merged.run.profiles.map((p) => p.name)).toEqual(NAMES);
  for (const [i, single] of SINGLE.profiles.entries()) {
    const got = merged.run.profiles[i];
    expect(got.metrics).toEqual(single.metrics);
    expect(got.thresholds).toEqual(single.thresholds);
    expect(got.verdict).toBe(single.verdict);
    expect(got.decisionLogSha256).toBe(single.decisionLogSha256);
    expect(got.decisions).toBe(single.decisions);
    expect(got.notes.filter((n) => !n.startsWith('ran as shard'))).toEqual(single.notes);
    // What shard.json kept of it: the text as history.jsonl keeps it (core/kept-text.ts).
    expect(merged.histories[got.name]).toEqual(keptHistory(HISTORIES[got.name]));
  }
  expect(merged.run.verdict).toBe(SINGLE.verdict);
}

describe('shard plus merge, split by profiles', () => {
  it('the synthetic run has something to count in every metric (the comparison can fail)', () => {
    const m = SINGLE.profiles[0].metrics;
    const counts = [m.opsFail, m.opsInfo, m.retriedOps, m.duplicateEffects, m.ghostEffects, m.lostEffects];
    for (const count of [...counts, m.tasksCreated, m.tasksRecreated, m.pollsResumed]) {
      expect(count).toBeGreaterThan(0);
    }
    expect(m.unattributedEffects).toBe(1);
    expect(m.retryAfterViolations).toBeGreaterThanOrEqual(0);
    expect(SINGLE.profiles.some((p) => p.thresholds.some((t) => !t.ok))).toBe(true);
    expect(new Set(SINGLE.profiles.map((p) => p.metrics.ops)).size).toBeGreaterThan(1);
  });

  it.each([1, 2, 3, 5, 7])(
    'merging %i shards reproduces every metric, threshold and verdict of the single run',
    (n) => {
      const merged = mergeShards(shardRun(n), judgingOf);
      expectSameAsSingle(merged);
      const parts = shardRun(n);
      const sum = (pick: (p: ProfileReport) => number) =>
        parts.reduce(
          (total, { shard }) =>
            total +
            shard.profiles.reduce(
              (s, p) => s + pick(report(PROFILES.find((l) => l.profile.name === p.name)!, p.history)),
              0,
            ),
          0,
        );
      const mergedSum = (pick: (p: ProfileReport) => number) => merged.run.profiles.reduce((s, p) => s + pick(p), 0);
      for (const pick of [
        (p: ProfileReport) => p.metrics.ops,
        (p: ProfileReport) => p.metrics.attempts,
        (p: ProfileReport) => p.metrics.reconciliation.effects,
        (p: ProfileReport) => p.metrics.duplicateEffects ?? Number.NaN,
      ]) {
        expect(mergedSum(pick)).toBe(sum(pick));
      }
    },
  );

  it('merges shards given in any order, and names where each profile ran', () => {
    const merged = mergeShards([...shardRun(3)].reverse(), judgingOf);
    expectSameAsSingle(merged);
    const order = shardOrder(PROFILES).map((l) => l.profile.name);
    const where = (name: string) =>
      merged.run.profiles.find((p) => p.name === name)!.notes.find((n) => n.startsWith('ran as shard'));
    expect(where(order[0])).toBe('ran as shard 1/3 of a sharded run');
    expect(where(order[4])).toBe('ran as shard 2/3 of a sharded run');
  });

  it('a merge that lost a profile would not match (negative control)', () => {
    const parts = shardRun(2);
    parts[1].shard.profiles[0].history = { ...parts[1].shard.profiles[0].history, ops: [] };
    const merged = mergeShards(parts, judgingOf);
    expect(merged.run.profiles.map((p) => p.metrics)).not.toEqual(SINGLE.profiles.map((p) => p.metrics));
  });
});

describe('the calibration through a merge', () => {
  it("a shard's calibration travels in shard.json and judges the merged profile's time bounds only", () => {
    const parts = shardRun(2);
    const target = parts[0].shard.profiles[0];
    const loaded = assessCalibration(
      { calls: 20, timedOut: 0, p50Ms: 600, p95Ms: 900, maxMs: 950 },
      { attemptTimeoutMs: 2000 },
    );
    // The loop stalls watched during the run widen its time bounds too (machineDelayMs): they must travel as well.
    loaded.duringRun = {
      harness: { p99Ms: 40, maxMs: 3800, samples: 900, cpuWaitShare: 0.6 },
      server: { p99Ms: 20, maxMs: 900, samples: 800 },
    };
    target.calibration = loaded;
    const reparsed = parseShardOutput(JSON.parse(JSON.stringify(parts[0].shard)));
    if ('problem' in reparsed) throw new Error(reparsed.problem);
    expect(reparsed.shard.profiles[0].calibration).toEqual(loaded);
    const merged = mergeShards([{ label: 'shard-0', shard: reparsed.shard }, parts[1]], judgingOf);
    const got = merged.run.profiles.find((p) => p.name === target.name)!;
    expect(got.calibration).toEqual(loaded);
    expect(machineDelayMs(got.calibration)).toBe(machineDelayMs(loaded));
    expect(machineDelayMs(loaded)).toBeGreaterThan(loaded.marginMs);
    // The load is said beside the verdict and never changes a count's result: judged as the same merge without it.
    expect(got.notes).toContain(
      `machine load: ${loaded.tooLoaded} (counts are judged as measured; a missed time bound within the machine's delay is inconclusive)`,
    );
    const plain = mergeShards(shardRun(2), judgingOf).run.profiles.find((p) => p.name === target.name)!;
    const counts = (p: typeof got) => p.thresholds.filter((t) => !isTimeUpperBound(t)).map((t) => t.status);
    expect(counts(got)).toEqual(counts(plain));
    // The other profiles had no calibration in their shards: judged as before.
    const others = merged.run.profiles.filter((p) => p.name !== target.name);
    expect(others.every((p) => p.calibration === undefined)).toBe(true);
  });
});

describe('merge refuses shards that are not one run', () => {
  const refuse = (parts: ShardInput[], message: RegExp) => expect(() => checkShards(parts)).toThrow(message);
  const edit = (parts: ShardInput[], k: number, change: (s: ShardOutput) => void) => {
    change(parts[k].shard);
    return parts;
  };

  it('different faultline versions', () => {
    refuse(
      edit(shardRun(2), 1, (s) => {
        s.faultline = '9.9.9';
      }),
      /^merge: shards ran different faultline versions: 0\.1\.0 \(shard-0\) and 9\.9\.9 \(shard-1\)$/,
    );
  });

  it('different seeds', () => {
    refuse([shardRun(2, 5)[0], shardRun(2, 6)[1]], /^merge: shards ran different seeds: --seed 5 .* and --seed 6/);
    refuse([shardRun(2)[0], shardRun(2, 6)[1]], /different seeds: each profile's own seed \(shard-0\) and --seed 6/);
  });

  it('different run ids (--run-id), and one given against none', () => {
    refuse(
      [shardRun(2, undefined, 'ci-7')[0], shardRun(2, undefined, 'ci-8')[1]],
      /^merge: shards ran different run ids: --run-id ci-7 \(shard-0\) and --run-id ci-8 \(shard-1\)$/,
    );
    refuse([shardRun(2)[0], shardRun(2, undefined, 'ci-8')[1]], /different run ids: no --run-id \(shard-0\) and/);
    // Negative control: shards of the one run id (it travels in shard.json) merge.
    const same = shardRun(2, undefined, 'ci-7');
    expect(same.map((p) => p.shard.runId)).toEqual(['ci-7', 'ci-7']);
    expectSameAsSingle(mergeShards(same, judgingOf));
  });

  it('different profiles (content hash)', () => {
    refuse(
      edit(shardRun(2), 0, (s) => {
        s.run[0].profileSha256 = 'f'.repeat(64);
      }),
      /^merge: shards ran different profiles: /,
    );
    refuse(
      edit(shardRun(2), 1, (s) => {
        s.run = s.run.slice(1);
      }),
      /different profiles/,
    );
  });

  it('a profile whose text is not the one the run names', () => {
    refuse(
      edit(shardRun(2), 1, (s) => {
        s.profiles[0].profileSha256 = '0'.repeat(64);
      }),
      /^merge: shard-1: profile \S+ differs from the run's \(profile content hash\)$/,
    );
  });

  it('overlapping and missing indices', () => {
    const parts = shardRun(3);
    refuse([parts[0], parts[1], parts[1]], /^merge: shard 2\/3 given twice \(shard-1 and shard-1\): shards overlap$/);
    refuse([parts[0], parts[2]], /^merge: missing shard 2\/3 \(got 2 of 3\)$/);
    refuse([parts[0]], /^merge: missing shards 2\/3, 3\/3 \(got 1 of 3\)$/);
    refuse([shardRun(2)[0], parts[1]], /different shard counts: n=2 \(shard-0\) and n=3 \(shard-1\)/);
    refuse([], /^merge: no shards given$/);
  });

  it('a shard that ran something other than its share', () => {
    const parts = shardRun(2);
    const moved = parts[0].shard.profiles.pop()!;
    parts[1].shard.profiles.push(moved);
    refuse(parts, /^merge: shard-0: shard 1\/2 ran \[.*\], expected its share \[.*\]$/);
  });
});

describe('one profile split by ops (the hook for the workload plan)', () => {
  /** The shard's part of a single run: its strided ops, their attempts and effects, moved to its own start. */
  function opShard(whole: History, shard: Shard, offsets: readonly number[], sharedLedger: boolean): History {
    const offset = offsets[shard.index - 1];
    const ownerOf = (opId: string | undefined) =>
      opId === undefined ? 0 : offsets.findIndex((_, k) => ownsOp({ index: k + 1, count: shard.count }, indexOf(opId)));
    const mine = (opId: string | undefined) => ownerOf(opId) === shard.index - 1;
    const move = <T extends { startMs: number; endMs: number }>(x: T): T => ({
      ...x,
      startMs: x.startMs + offset,
      endMs: x.endMs + offset,
    });
    const at = <T extends { atMs: number }>(x: T): T => ({ ...x, atMs: x.atMs + offset });
    const hitsShare = (w: FaultWindow) =>
      Math.floor((w.hits ?? 0) / shard.count) + (shard.index === 1 ? (w.hits ?? 0) % shard.count : 0);
    const first = shard.index === 1;
    return {
      ...whole,
      startMs: whole.startMs + offset,
      endMs: whole.endMs + offset,
      ops: whole.ops!.filter((o) => mine(o.opId)).map(move),
      attempts: whole.attempts!.filter((a) => mine(a.opId)).map(move),
      // One shared ledger shows every shard every effect, each when its op's shard caused it (the server's clock);
      // a ledger of its own shows a shard only its own effects.
      effects: sharedLedger
        ? [...whole.effects].map((e) => ({ ...e, atMs: e.atMs + offsets[ownerOf(e.traceId)] }))
        : [...whole.effects].filter((e) => mine(e.traceId)).map(at),
      faults: whole.faults.map((w) => ({ ...w, onMs: w.onMs + offset, offMs: w.offMs! + offset, hits: hitsShare(w) })),
      decisions: first ? whole.decisions : [],
      breaker: first ? whole.breaker!.map(at) : [],
      transportEvents: first ? whole.transportEvents!.map(at) : [],
    };
  }
  const indexOf = (opId: string) => Number(opId.slice(3));

  it.each([
    [2, false],
    [3, false],
    [4, true],
  ])('%i shards (shared ledger: %s) merge back into the single run, metric for metric', (n, shared) => {
    const whole = syntheticHistory(7, 400);
    const offsets = [0, 1234, 50_000, 777].slice(0, n);
    const parts = Array.from({ length: n }, (_, k) => opShard(whole, { index: k + 1, count: n }, offsets, shared));
    const merged = mergeHistories('big', parts);
    expect(merged).toEqual(whole);
    expect(computeMetrics(merged, metricsOptionsFor(PROFILES[0].profile))).toEqual(
      computeMetrics(whole, metricsOptionsFor(PROFILES[0].profile)),
    );
    expect(merged.ops!.length).toBe(parts.reduce((s, p) => s + p.ops!.length, 0));
  });

  it("keeps every shard's protocol discovery records (on the merged clock) and what the server spoke", () => {
    const whole = syntheticHistory(7, 40);
    const probe = (atMs: number, negotiated: string) => ({ atMs, probes: [], negotiated });
    const a = { ...whole, discovery: [probe(whole.startMs + 5, '2026-07-28')], serverSpeaksModern: true };
    const b = {
      ...whole,
      startMs: whole.startMs + 1000,
      discovery: [probe(whole.startMs + 1002, '2025-11-25')],
      serverSpeaksModern: true,
    };
    const merged = mergeHistories('big', [a, b]);
    expect(merged.discovery?.map((d) => [d.atMs - merged.startMs, d.negotiated])).toEqual([
      [2, '2025-11-25'],
      [5, '2026-07-28'],
    ]);
    expect(merged.serverSpeaksModern).toBe(true);
    // Shards that disagree (or did not know) leave it unknown rather than pick one.
    expect(mergeHistories('big', [a, { ...b, serverSpeaksModern: false }]).serverSpeaksModern).toBeUndefined();
    expect(mergeHistories('big', [a, { ...b, serverSpeaksModern: undefined }]).serverSpeaksModern).toBeUndefined();
  });

  it('refuses shards of one profile that ran different fault windows', () => {
    const whole = syntheticHistory(7, 40);
    const other = { ...whole, faults: [{ ...whole.faults[0], id: 'f2' }] };
    expect(() => mergeHistories('big', [whole, other])).toThrow(
      /^merge: profile big: shards ran different fault windows \(\[f1 dependency http-5xx\] and \[f2 dependency http-5xx\]\)$/,
    );
  });

  describe("a relative threshold is bound by the shards' merged faults-off controls", () => {
    const latency = loadProfile(shipped('network-latency'));
    const opts = metricsOptionsFor(latency.profile);
    const name = latency.profile.name;
    /** The same workload with no fault: every op and attempt answered in 2 ms. */
    const quick = (h: History): History => ({
      ...h,
      faults: [],
      ops: h.ops!.map((o) => ({ ...o, endMs: o.startMs + 2 })),
      attempts: h.attempts!.map((a) => ({ ...a, endMs: a.startMs + 2 })),
    });
    const whole = syntheticHistory(11, 300);
    const control = quick(syntheticHistory(12, 300));
    const offsets = [0, 4321];
    /** What each of two shards writes, through JSON; `withControl` false: shards from before controls travelled. */
    const shards = (withControl: boolean): ShardInput[] =>
      [1, 2].map((index) => {
        const shard: Shard = { index, count: 2 };
        const part = opShard(whole, shard, offsets, false);
        const controlPart = opShard({ ...control, faults: whole.faults }, shard, offsets, false);
        const controls = withControl ? { [name]: { history: { ...controlPart, faults: [] } } } : undefined;
        const histories = { [name]: part };
        const output = shardOutput(
          runShare(shard, [latency], undefined),
          runOf([latency], histories),
          histories,
          undefined,
          controls,
        );
        const parsed = parseShardOutput(JSON.parse(JSON.stringify(output)));
        if ('problem' in parsed) throw new Error(parsed.problem);
        return { label: `shard-${index - 1}`, shard: parsed.shard };
      });
    const relative = (merged: MergedRun) => merged.run.profiles[0].thresholds.find((t) => t.relative !== undefined)!;

    it("binds it by the control's whole p99, as the single run would", () => {
      const got = relative(mergeShards(shards(true), judgingOf));
      const controlP99 = computeMetrics(control, opts).latencyMs.p99!;
      expect(got.expr).toBe('latency_p99_ms >= 3 x control');
      expect(got.relative).toMatchObject({ factor: 3, control: controlP99 });
      expect(got.status).toBe('pass');
    });

    it('fails it, naming the missing control, when the shards carry none (negative control)', () => {
      const got = relative(mergeShards(shards(false), judgingOf));
      expect(got.status).not.toBe('pass');
      expect(got.reason).toBe('no faults-off control ran');
    });

    it('a profile with no faults is its own control', () => {
      const got = relative(mergeShards(shards(false), (p) => ({ ...judgingOf(p), ownControl: true })));
      expect(got.relative?.control).toBe(computeMetrics(whole, opts).latencyMs.p99);
      expect(judgingOf(shardRun(1)[0].shard.profiles.find((p) => p.name === 'baseline')!).ownControl).toBe(true);
    });
  });

  it('counts hits as null when one shard cannot count them, and leaves a never-removed window open', () => {
    const whole = syntheticHistory(7, 40);
    const a = { ...whole, faults: [{ ...whole.faults[0], hits: 3 }] };
    const b = { ...whole, faults: [{ ...whole.faults[0], hits: null, offMs: undefined }] };
    const [window] = mergeHistories('big', [a, b]).faults;
    expect(window.hits).toBeNull();
    expect(window.offMs).toBeUndefined();
  });

  describe("shard.json keeps no secret the run saw; merge takes each shard's leak findings", () => {
    const loaded = PROFILES[0];
    const name = loaded.profile.name;
    const markers = Object.values(CANARY_MARKERS);
    const kinds = Object.keys(CANARIES) as (keyof typeof CANARIES)[];
    /** A run whose server leaked: canaries in answers the model saw, in error messages and notifications, a key in the arguments. */
    const leaky: History = (() => {
      const h = syntheticHistory(21, 160);
      h.ops!.forEach((o, i) => {
        if (i % 9 === 0) o.visible = `answer ${CANARIES[kinds[i % kinds.length]]} end`;
      });
      h.attempts!.forEach((a, i) => {
        a.args = { customer_id: `cus_${i}`, api_key: `sk_live_${'x'.repeat(24)}` };
        if (!a.ok && i % 3 === 0) a.message = `upstream said: ${CANARIES[kinds[i % kinds.length]]}`;
        if (i % 17 === 0) a.notifications = [`progress: ${CANARIES.password}`];
      });
      return h;
    })();
    const offsets = [0, 2500];
    const single = report(loaded, leaky).metrics;
    /** What each of two shards writes (split by ops), as text and read back. */
    const written = [1, 2].map((index) => {
      const shard: Shard = { index, count: 2 };
      const histories = { [name]: opShard(leaky, shard, offsets, false) };
      const output = shardOutput(
        runShare(shard, [loaded], undefined),
        runOf([loaded], histories),
        histories,
        undefined,
      );
      return { text: JSON.stringify(output), output };
    });
    const inputs = (shards: unknown[]): ShardInput[] =>
      shards.map((value, k) => {
        const parsed = parseShardOutput(value);
        if ('problem' in parsed) throw new Error(parsed.problem);
        return { label: `shard-${k}`, shard: parsed.shard };
      });
    const mergedMetrics = (shards: unknown[]) => mergeShards(inputs(shards), judgingOf).run.profiles[0].metrics;

    it('the run leaked in every place the scan looks (the comparison can fail)', () => {
      expect(new Set(single.leakFindings.map((f) => f.where))).toEqual(new Set(['visible', 'attempt', 'notification']));
      expect(Object.keys(single.leaksByKind).length).toBeGreaterThan(2);
      for (const { text } of written) expect(text).toContain('"leakFindings":[{');
    });

    it('no canary, secret key or server path is in either shard.json', () => {
      for (const { text } of written) {
        for (const marker of markers) expect(text).not.toContain(marker);
        expect(text).not.toContain('sk_live_');
        expect(text).not.toContain('/srv/app');
      }
    });

    it('the merge counts every leak of the single run, listed alike', () => {
      const merged = mergedMetrics(written.map((w) => JSON.parse(w.text)));
      expect(merged.leakFindings).toEqual(single.leakFindings);
      expect(merged.leaks).toBe(single.leaks);
      expect(merged.leaksByKind).toEqual(single.leaksByKind);
    });

    it('a format 2 shard without its findings is refused, not merged as leaking nothing (the kept text shows none)', () => {
      const stripped = JSON.parse(written[0].text);
      delete stripped.profiles[0].leakFindings;
      expect(parseShardOutput(stripped)).toEqual({
        problem:
          "profiles.0.leakFindings: missing (a format 2 shard carries the leak scan's findings; its history has no text to scan)",
      });
      // What a merge would have counted without them: the kept text holds no canary.
      expect(findLeaks(written[0].output.profiles[0].history, { canaries: CANARY_MARKERS })).toEqual([]);
    });

    it('a format 1 shard (its history whole, no findings) is scanned, beside a format 2 one', () => {
      const old = JSON.parse(written[0].text);
      old.format = 1;
      delete old.profiles[0].leakFindings;
      old.profiles[0].history = JSON.parse(JSON.stringify(opShard(leaky, { index: 1, count: 2 }, offsets, false)));
      const merged = mergedMetrics([old, JSON.parse(written[1].text)]);
      expect(merged.leakFindings).toEqual(single.leakFindings);
    });
  });
});
