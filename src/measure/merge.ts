// Merges shard outputs (shard-format.ts) into one run: refuses shards of different runs, unions each profile's
// histories (ops, attempts, effects; fault windows matched by id), then judges every profile once from the merged
// history with buildProfileReport, so no metric is an average of shard metrics.
import { createHash } from 'node:crypto';
import type { FaultWindow, History } from '../core/history.ts';
import { historyKey } from '../core/history-key.ts';
import { wholeAttempts, wholeOps } from '../core/history-records.ts';
import type { Effect } from '../core/ledger.ts';
import { PAIRINGS } from '../core/pairing.ts';
import { formatShard, shareOf } from '../core/shard.ts';
import { stableStringify } from '../core/stable-hash.ts';
import { type Calibration, machineDelayMs } from './calibration.ts';
import { buildCapacityReview, type CapacityReview } from './capacity.ts';
import type { LeakFinding } from './leak-finding.ts';
import { findLeaks, inReportOrder } from './leaks.ts';
import { computeMetrics } from './metrics.ts';
import type { MetricsOptions } from './options.ts';
import { buildProtocolMatrix } from './protocol-matrix.ts';
import type { ProfileReport, RunReport } from './run-report.ts';
import type { ShardCapacity, ShardOutput, ShardProfile } from './shard-format.ts';
import type { Metrics } from './types.ts';
import { buildProfileReport, buildRunReport } from './verdict.ts';

/** Shards that do not make one run (one line for the user, exit 2). */
class MergeError extends Error {
  readonly userFacing = true;
}

export interface ShardInput {
  /** Where the shard came from (its folder), for messages. */
  label: string;
  shard: ShardOutput;
}

/** How a profile is judged: read from its text by the caller (run/judging.ts). */
export interface Judging {
  description?: string;
  expect: readonly string[];
  metricsOptions: MetricsOptions;
  /** The profile has no faults, so it is its own faults-off control. */
  ownControl?: boolean;
}

export interface MergedRun {
  run: RunReport;
  histories: Record<string, History>;
}

export function mergeShards(inputs: readonly ShardInput[], judgeOf: (p: ShardProfile) => Judging): MergedRun {
  checkShards(inputs);
  const sorted = [...inputs].sort((a, b) => a.shard.shard.index - b.shard.shard.index);
  const first = sorted[0].shard;
  const reports: ProfileReport[] = [];
  const histories: Record<string, History> = {};
  // In several pairings, each pairing's runs of a profile merge on their own (a profile x pairing is one run).
  const columns = runColumns(first);
  const several = columns !== undefined && columns.length > 1;
  // A shard whose profiles all ran in legacy alone tagged none of its reports; the run as a whole may name pairings.
  const named = columns?.some((name) => name !== 'legacy') ?? false;
  const tagOf = (p: ShardProfile) => p.pairing ?? (named ? 'legacy' : undefined);
  const runs = first.run.flatMap(({ name }): { name: string; pairing?: string; parts: ShardProfile[] }[] => {
    const all = sorted.flatMap(({ shard }) => shard.profiles.filter((p) => p.name === name));
    const tags = unique(all.flatMap((p) => tagOf(p) ?? []));
    if (columns) tags.sort((x, y) => columns.indexOf(x) - columns.indexOf(y));
    return tags.length === 0
      ? [{ name, parts: all }]
      : tags.map((pairing) => ({ name, pairing, parts: all.filter((p) => tagOf(p) === pairing) }));
  });
  for (const { name, pairing, parts } of runs) {
    if (parts.length === 0) continue;
    const history = mergeHistories(
      pairing ? `${name} [${pairing}]` : name,
      parts.map((p) => p.history),
    );
    // A capacity level's no-fault control runs without the profile's thresholds (run/run-capacity.ts).
    const controls = new Set(first.capacity?.levels.map((l) => l.control));
    const judging = controls.has(name) ? { ...judgeOf(parts[0]), expect: [] } : judgeOf(parts[0]);
    const errors = unique(parts.flatMap((p) => (p.error ? [p.error] : [])));
    const calibration = slowest(parts.flatMap((p) => (p.calibration ? [p.calibration] : [])));
    const where =
      first.split === 'ops'
        ? `merged from ${parts.length} shards split by ops; each shard's times aligned on its own start`
        : `ran as shard ${formatShard(sorted.find(({ shard }) => shard.profiles.includes(parts[0]))!.shard.shard)} of a sharded run`;
    const report = buildProfileReport({
      name,
      description: judging.description,
      file: parts[0].file,
      seed: parts[0].seed,
      policy: parts[0].policy,
      history,
      expect: judging.expect,
      decisionLogSha256: parts.length === 1 ? parts[0].decisionLogSha256 : combinedHash(parts),
      metricsOptions: { ...judging.metricsOptions, leakFindings: leakFindingsOf(parts, judging.metricsOptions) },
      notes: [...unique(parts.flatMap((p) => p.notes)), where],
      ...(errors.length > 0 && { error: errors.join('; ') }),
      ...(calibration && { calibration }),
      ...(judging.ownControl ? { control: 'self' as const } : mergedControl(name, parts, judging)),
    });
    reports.push(pairing ? { ...report, pairing } : report);
    histories[historyKey({ name, pairing }, several)] = history;
  }
  const starts = sorted.map(({ shard }) => Date.parse(shard.startedAt));
  const ends = sorted.map(({ shard }, k) => starts[k] + shard.durationMs);
  const run = buildRunReport({
    seed: first.seed ?? reports[0]?.seed ?? 0,
    startedAt: new Date(Math.min(...starts)),
    durationMs: Math.max(...ends) - Math.min(...starts),
    profiles: reports,
    faultline: first.faultline,
  });
  const { capacity } = first;
  if (capacity) run.capacity = mergedCapacity(capacity, reports);
  const skipped = uniqueBy(
    sorted.flatMap(({ shard }) => shard.notApplicable ?? []),
    (n) => `${n.profile}@${n.pairing}`,
  );
  if (skipped.length > 0) run.notApplicable = skipped;
  if (several) run.matrix = buildProtocolMatrix(columns.map(describePairing), reports, skipped);
  return { run, histories };
}

/**
 * What the leak scan found in the parts' ops: each shard's own findings (format 2 keeps no model-visible text to scan
 * again, and always carries them: shard-format.ts), or a format 1 shard's history scanned here. Each op ran in one
 * shard, so together they are the scan of the whole run's ops, listed as one scan lists them.
 */
function leakFindingsOf(parts: readonly ShardProfile[], options: MetricsOptions): LeakFinding[] {
  return inReportOrder(parts.flatMap((p) => p.leakFindings ?? findLeaks(p.history, { canaries: options.canaries })));
}

/**
 * The faults-off control every shard ran before its part of the profile, merged as the profile's parts are: what its
 * relative thresholds are bound by. Absent unless every part has one (a relative threshold then fails: no control).
 */
function mergedControl(
  name: string,
  parts: readonly ShardProfile[],
  judging: Judging,
): { control: Metrics; controlDelayMs: number } | undefined {
  const controls = parts.flatMap((p) => (p.control ? [p.control] : []));
  if (controls.length === 0 || controls.length < parts.length) return undefined;
  const history = mergeHistories(
    `${name} (faults-off control)`,
    controls.map((c) => c.history),
  );
  const calibration = slowest(controls.flatMap((c) => (c.calibration ? [c.calibration] : [])));
  return {
    control: computeMetrics(history, judging.metricsOptions),
    controlDelayMs: machineDelayMs(calibration),
  };
}

/** The capacity review of the merged runs: the knee judged once, on the merged numbers of every level. */
function mergedCapacity(capacity: ShardCapacity, reports: readonly ProfileReport[]): CapacityReview {
  const reportOf = (name: string) => reports.find((r) => r.name === name);
  const levels = capacity.levels.flatMap(({ level, control, faulted }) => {
    const [c, f] = [reportOf(control), reportOf(faulted)];
    return c && f ? [{ level, control: c, faulted: f }] : [];
  });
  return buildCapacityReview({ profile: capacity.profile, mode: capacity.mode, rule: capacity.rule, levels });
}

/** Every way a set of shards can fail to be one run, each as one line. */
export function checkShards(inputs: readonly ShardInput[]): void {
  if (inputs.length === 0) throw new MergeError('merge: no shards given');
  const [a, ...rest] = inputs;
  const same = (what: string, pick: (s: ShardOutput) => unknown, show = (v: unknown) => String(v)) => {
    for (const b of rest) {
      if (stableStringify(pick(a.shard)) !== stableStringify(pick(b.shard))) {
        throw new MergeError(
          `merge: shards ran different ${what}: ${show(pick(a.shard))} (${a.label}) and ${show(pick(b.shard))} (${b.label})`,
        );
      }
    }
  };
  same('faultline versions', (s) => s.faultline);
  same(
    'run ids',
    (s) => s.runId ?? null,
    (v) => (v === null ? 'no --run-id' : `--run-id ${v}`),
  );
  same(
    'seeds',
    (s) => s.seed,
    (v) => (v === null ? "each profile's own seed" : `--seed ${v}`),
  );
  same(
    'profiles',
    (s) =>
      s.run
        .map(({ name, profileSha256 }) => ({ name, profileSha256 }))
        .sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0)),
    describeRun,
  );
  same(
    'shard counts',
    (s) => s.shard.count,
    (v) => `n=${v}`,
  );
  same('splits', (s) => s.split);
  if (inputs.every(({ shard }) => namesEachProfilesPairings(shard))) {
    // Each profile in the same pairings in every shard (one --protocol for the run). A run split by profiles gives
    // each shard its own profiles' pairings only, so the shards' matrix columns may differ.
    for (const b of rest) {
      for (const { name, pairings } of a.shard.run) {
        const theirs = b.shard.run.find((r) => r.name === name)?.pairings;
        if (theirs && theirs.join() !== pairings!.join()) {
          throw new MergeError(
            `merge: shards ran ${name} in different protocol pairings: ${pairings!.join(', ')} (${a.label}) and ${theirs.join(', ')} (${b.label})`,
          );
        }
      }
    }
  } else {
    same(
      'protocol pairings',
      (s) => s.pairings?.map((p) => p.name) ?? null,
      (v) => (v === null ? 'one pairing' : (v as string[]).join(', ')),
    );
  }
  same(
    'capacity reviews',
    (s) => s.capacity ?? null,
    (v) => (v === null ? 'a run' : `a capacity review of ${(v as ShardCapacity).profile}`),
  );

  const count = a.shard.shard.count;
  const byIndex = new Map<number, string>();
  for (const { label, shard } of inputs) {
    const { index } = shard.shard;
    const seen = byIndex.get(index);
    if (seen) throw new MergeError(`merge: shard ${index}/${count} given twice (${seen} and ${label}): shards overlap`);
    byIndex.set(index, label);
  }
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !byIndex.has(i));
  if (missing.length > 0) {
    throw new MergeError(
      `merge: missing shard${missing.length > 1 ? 's' : ''} ${missing.map((i) => `${i}/${count}`).join(', ')} (got ${inputs.length} of ${count})`,
    );
  }
  const hashOf = new Map(a.shard.run.map((r) => [r.name, r.profileSha256]));
  const refs = a.shard.run.map((r) => ({ file: r.name, profile: { name: r.name } }));
  for (const { label, shard } of inputs) {
    for (const p of shard.profiles) {
      if (hashOf.get(p.name) !== p.profileSha256) {
        throw new MergeError(`merge: ${label}: profile ${p.name} differs from the run's (profile content hash)`);
      }
    }
    // A profile runs once per pairing; one whose every pairing was n/a ran nowhere but was still the shard's.
    const ran = unique([...shard.profiles.map((p) => p.name), ...(shard.notApplicable ?? []).map((n) => n.profile)]);
    // Split by ops (one profile, or every run of a capacity review), each shard ran every run of the list.
    const share = shareOf(refs, shard.shard);
    const expected =
      shard.split === 'ops'
        ? refs.map((r) => r.file)
        : share.split === 'profiles'
          ? share.profiles.map((r) => r.profile.name)
          : [share.profile.file];
    if (stableStringify([...ran].sort()) !== stableStringify([...expected].sort())) {
      throw new MergeError(
        `merge: ${label}: shard ${formatShard(shard.shard)} ran [${ran.join(', ')}], expected its share [${expected.join(', ')}]`,
      );
    }
  }
  if (a.shard.split === 'ops') {
    same('profile seeds or policies', (s) => s.profiles.map((p) => [p.name, p.seed, p.policy]));
  }
}

/**
 * The run's protocol pairings in matrix column order, as a single run orders them: by profile in the run's order,
 * each profile's own in its choice's order. Undefined when every profile ran in legacy alone (no pairing named). A
 * shard.json without each profile's pairings (written before they travelled) has the shard's own columns.
 */
function runColumns(shard: ShardOutput): string[] | undefined {
  if (!namesEachProfilesPairings(shard)) return shard.pairings?.map((p) => p.name);
  const columns = unique(shard.run.flatMap((r) => r.pairings ?? []));
  return columns.length === 1 && columns[0] === 'legacy' ? undefined : columns;
}

/** shard.json names each profile's pairings in its run list (written since they travel). */
function namesEachProfilesPairings(shard: ShardOutput): boolean {
  return shard.run.every((r) => r.pairings !== undefined);
}

function describePairing(name: string): { name: string; summary: string } {
  return { name, summary: PAIRINGS.find((p) => p.name === name)?.summary ?? name };
}

function describeRun(run: unknown): string {
  return (run as ShardOutput['run']).map((r) => `${r.name}@${r.profileSha256.slice(0, 8)}`).join(', ');
}

/**
 * One profile's history from its shards' histories. One part is returned as it is. Several (a profile split by ops)
 * are aligned on their starts (each shard ran the same timeline from its own start), then unioned: ops and
 * attempts; effects once each (shards reading one shared ledger each see every effect), moved with the op they
 * belong to; fault windows matched by id, from the earliest onset to the latest removal, hits added; each shard's
 * listen stream kept apart, tagged with its shard, as are the effects when a shard listened.
 */
export function mergeHistories(profile: string, parts: readonly History[]): History {
  if (parts.length === 1) return parts[0];
  const base = Math.min(...parts.map((p) => p.startMs));
  const offsets = parts.map((p) => base - p.startMs);
  const ownerOf = new Map<string, number>();
  for (const [k, p] of parts.entries()) for (const o of wholeOps(p)) ownerOf.set(o.opId, k);
  const shifted = <T>(pick: (p: History) => readonly T[] | undefined, move: (item: T, by: number) => T) =>
    parts.flatMap((p, k) => (pick(p) ?? []).map((item) => move(item, offsets[k])));
  const span = <T extends { startMs: number; endMs: number }>(item: T, by: number): T => ({
    ...item,
    startMs: item.startMs + by,
    endMs: item.endMs + by,
  });
  const at = <T extends { atMs: number }>(item: T, by: number): T => ({ ...item, atMs: item.atMs + by });
  const byStart = (x: { startMs: number }, y: { startMs: number }) => x.startMs - y.startMs;
  const byAt = (x: { atMs: number }, y: { atMs: number }) => x.atMs - y.atMs;

  // Each shard listened on a stream of its own: events and effects carry their shard (parts come in shard order),
  // so each stream is judged on the charges of its own shard's ops (measure/notifications.ts).
  const listened = parts.some((p) => p.subscriptions !== undefined);
  const seen = new Set<string>();
  const effects: Effect[] = [];
  for (const [k, p] of parts.entries()) {
    for (const e of p.effects) {
      const key = stableStringify(e);
      if (seen.has(key)) continue;
      seen.add(key);
      const owner = e.traceId !== undefined ? (ownerOf.get(e.traceId) ?? k) : k;
      effects.push({ ...at(e, offsets[owner]), ...(listened && { shard: owner + 1 }) });
    }
  }
  effects.sort((x, y) => x.atMs - y.atMs || x.seq - y.seq);
  const subscriptions = parts
    .flatMap((p, k) => (p.subscriptions ?? []).map((e) => ({ ...at(e, offsets[k]), shard: k + 1 })))
    .sort(byAt);

  const breaker = shifted((p) => p.breaker, at).sort(byAt);
  const transportEvents = shifted((p) => p.transportEvents, at).sort(byAt);
  // Each shard's client connected on its own: every connect is one record, whichever shard made it.
  const discovery = shifted((p) => p.discovery, at).sort(byAt);
  const speaks = unique(parts.map((p) => String(p.serverSpeaksModern)));
  const observable = parts.every((p) => p.effectsObservable !== false);
  const unknown = parts.find((p) => p.effectsUnknown !== undefined)?.effectsUnknown;
  return {
    startMs: base,
    endMs: Math.max(...parts.map((p, k) => p.endMs + offsets[k])),
    ops: shifted((p) => [...wholeOps(p)], span).sort(byStart),
    attempts: shifted((p) => [...wholeAttempts(p)], span).sort(byStart),
    faults: mergeWindows(profile, parts, offsets),
    effects,
    decisions: parts.flatMap((p) => [...p.decisions]),
    ...(transportEvents.length > 0 && { transportEvents }),
    ...(breaker.length > 0 && { breaker }),
    ...(discovery.length > 0 && { discovery }),
    ...(listened && { subscriptions }),
    ...(speaks.length === 1 && speaks[0] !== 'undefined' && { serverSpeaksModern: speaks[0] === 'true' }),
    ...(!observable && { effectsObservable: false }),
    ...(unknown !== undefined && { effectsUnknown: unknown }),
  };
}

function mergeWindows(profile: string, parts: readonly History[], offsets: readonly number[]): FaultWindow[] {
  const shape = (h: History) => h.faults.map((f) => `${f.id} ${f.seam} ${f.kind}`).join(', ');
  for (const p of parts.slice(1)) {
    if (shape(p) !== shape(parts[0])) {
      throw new MergeError(
        `merge: profile ${profile}: shards ran different fault windows ([${shape(parts[0])}] and [${shape(p)}])`,
      );
    }
  }
  return parts[0].faults.map((window, i) => {
    const all = parts.map((p, k) => ({ ...p.faults[i], onMs: p.faults[i].onMs + offsets[k] }));
    const offs = parts.map((p, k) => (p.faults[i].offMs === undefined ? undefined : p.faults[i].offMs! + offsets[k]));
    const hits = all.map((w) => w.hits);
    const merged: FaultWindow = { ...window, onMs: Math.min(...all.map((w) => w.onMs)) };
    if (offs.every((o) => o !== undefined)) merged.offMs = Math.max(...(offs as number[]));
    else delete merged.offMs;
    if (hits.some((h) => h === null)) merged.hits = null;
    else if (hits.some((h) => h !== undefined)) merged.hits = hits.reduce<number>((sum, h) => sum + (h ?? 0), 0);
    return merged;
  });
}

/** The decision log of a profile split by ops: the shards' logs, hashed in shard order. */
function combinedHash(parts: readonly ShardProfile[]): string {
  return createHash('sha256')
    .update(parts.map((p) => p.decisionLogSha256).join('\n'))
    .digest('hex');
}

function unique(items: readonly string[]): string[] {
  return [...new Set(items)];
}

function uniqueBy<T>(items: readonly T[], key: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((item) => !seen.has(key(item)) && seen.add(key(item)) !== undefined);
}

/** The shards' calibration that judges the merged profile: the slowest (the largest margin, any too-loaded one). */
function slowest(calibrations: readonly Calibration[]): Calibration | undefined {
  return [...calibrations].sort((a, b) => Number(!!b.tooLoaded) - Number(!!a.tooLoaded) || b.marginMs - a.marginMs)[0];
}
