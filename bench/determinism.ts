// Same seed, same decisions? Runs each profile N times with one seed and prints how many distinct decision-log
// hashes came out (the report's hash of the plan decisions, and for comparison a hash of the whole log, keyed
// draws included), then per run against the first: keyed draws whose values differ for the same key (a real
// non-determinism: must be 0), keys only one run reached (timing), the first divergence by op
// (core/decision-diff.ts) and which stream families differ. Prints; asserts nothing.
// Run: npm run bench:determinism -- [PROFILE...] [--runs N] [--seed N]
import { fileURLToPath } from 'node:url';
import { describeDivergence, firstDivergence } from '../src/core/decision-diff.ts';
import { compareKeyed } from '../src/core/decision-log.ts';
import { decisionsSha256 } from '../src/core/decisions-hash.ts';
import type { DecisionRecord } from '../src/core/history.ts';
import { createNetworkBackend } from '../src/network/index.ts';
import { loadProfile } from '../src/profile/load.ts';
import { runProfile } from '../src/run/run-profile.ts';
import { benchArgs, InvalidArgumentError, parseSeed } from './args.ts';

const DEFAULT_PROFILES = ['dependency-5xx', 'sse-cut', 'network-reset'];

function parseRuns(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 2)
    throw new InvalidArgumentError('expected a whole number of at least 2');
  return Number(value);
}

const { options, args } = benchArgs<{ runs: number; seed?: number }>(
  'bench:determinism',
  'runs each profile several times with one seed and prints how far their decision logs agree',
  (c) =>
    c
      .argument('[profiles...]', `profile files or shipped profile names (default: ${DEFAULT_PROFILES.join(', ')})`)
      .option('--runs <n>', 'runs of each profile', parseRuns, 5)
      .option('--seed <n>', "the seed every run uses (default: each profile's own)", parseSeed),
);

const profileFile = (name: string) =>
  name.endsWith('.yaml') ? name : fileURLToPath(new URL(`../chaos-profiles/${name}.yaml`, import.meta.url));

/** Streams whose own sequence of decisions differs between two logs (arrival order between streams ignored). */
function differingStreams(a: readonly DecisionRecord[], b: readonly DecisionRecord[]): string[] {
  const byStream = (log: readonly DecisionRecord[]) => {
    const m = new Map<string, string[]>();
    for (const d of log) m.set(d.stream, [...(m.get(d.stream) ?? []), `${d.what}=${String(d.value)}`]);
    return m;
  };
  const x = byStream(a);
  const y = byStream(b);
  return [...new Set([...x.keys(), ...y.keys()])]
    .filter((s) => (x.get(s) ?? []).join('\n') !== (y.get(s) ?? []).join('\n'))
    .sort();
}

/** A stream name with its op and request parts generalised, so 40 differing requests read as one family. */
const family = (stream: string) =>
  stream
    .replace(/op-?\d+/g, 'op-*')
    .replace(/attempt-\d+/g, 'attempt-*')
    .replace(/request-\d+/g, 'request-*')
    .replace(/\/c\d+$/, '/c*');

async function main(): Promise<void> {
  const { runs, seed } = options;
  const profiles = args.length > 0 ? args : DEFAULT_PROFILES;
  for (const name of profiles) {
    const loaded = loadProfile(profileFile(name));
    const results: { hash: string; decisions: DecisionRecord[]; retried: number; verdict: string }[] = [];
    for (let i = 0; i < runs; i++) {
      const { report, history } = await runProfile(loaded, {
        seed,
        signal: new AbortController().signal,
        network: (s, onDecision) => createNetworkBackend('embedded', { seed: s, onDecision }),
      });
      results.push({
        hash: report.decisionLogSha256,
        decisions: [...history.decisions],
        retried: report.metrics.retriedOps,
        verdict: report.verdict,
      });
      process.stdout.write('.');
    }
    const distinct = new Set(results.map((r) => r.hash));
    const whole = new Set(results.map((r) => decisionsSha256(r.decisions.map(({ keyed: _, ...d }) => d))));
    const first = results[0];
    console.log(
      `\n${loaded.profile.name} (seed ${seed ?? loaded.profile.seed}): ${distinct.size} distinct decision-log hash(es) in ${runs} runs` +
        ` (whole log, keyed draws included: ${whole.size});` +
        ` decisions per run ${results.map((r) => r.decisions.length).join(' ')};` +
        ` keyed ${results.map((r) => r.decisions.filter((d) => d.keyed).length).join(' ')};` +
        ` retried ops ${results.map((r) => r.retried).join(' ')}; verdicts ${results.map((r) => r.verdict).join(' ')}`,
    );
    results.forEach((r, i) => {
      if (i === 0) return;
      const k = compareKeyed(first.decisions, r.decisions);
      const mismatch = k.mismatched[0];
      console.log(
        `  run ${i + 1} vs run 1: hash ${r.hash === first.hash ? 'same' : 'DIFFERS'}; keyed streams in both ${k.common},` +
          ` same values ${k.common - k.mismatched.length}, different values ${k.mismatched.length}` +
          `${mismatch ? ` (first: ${mismatch.stream} ${mismatch.what} ${String(mismatch.expected)} -> ${String(mismatch.actual)})` : ''};` +
          ` reached by one run only ${k.onlyFirst.length} + ${k.onlySecond.length}`,
      );
      const d = firstDivergence(first.decisions, r.decisions);
      if (!d) return;
      const families = new Map<string, number>();
      for (const s of differingStreams(first.decisions, r.decisions))
        families.set(family(s), (families.get(family(s)) ?? 0) + 1);
      console.log(`    ${describeDivergence(d)}`);
      console.log(`    differing streams: ${[...families].map(([f, n]) => `${f} x${n}`).join(', ')}`);
    });
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
