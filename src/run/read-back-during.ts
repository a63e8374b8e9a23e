// Read-back during the run: the probes that ask for it (`effects.readBack[i].during: { every }`) are also called
// while the workload runs, so the report shows when each op's effect first appeared, and which effects seen mid-run
// were gone at the final read-back (a write that was made and then lost: overwritten, rolled back). The final
// read-back still decides lost, ghost and duplicate; this adds the when. A failed sample (faults are on) is counted.
import { epochMs } from '../core/clock.ts';
import type { History, OpRecord } from '../core/history.ts';
import { opGroups } from '../core/history-records.ts';
import type { Effect } from '../core/ledger.ts';
import { sleep } from '../core/sleep.ts';
import type { DuringKey, ReadBackDuring } from '../measure/run-report.ts';

/** What samples the server mid-run (a ReadBackSource with `during` probes). */
export interface DuringSource {
  readonly duringEveryMs: number | undefined;
  sampleDuring(): Promise<Effect[]>;
}

interface Sighting {
  key: string;
  firstAtMs: number;
  lastAtMs: number;
}

export class DuringSampler {
  private readonly seen = new Map<string, Sighting>();
  private samples = 0;
  private failed = 0;
  private readonly stop = new AbortController();
  private loop: Promise<void> = Promise.resolve();

  constructor(
    private readonly source: DuringSource,
    private readonly everyMs: number,
  ) {}

  /** Samples every `everyMs` from now until stopped. */
  start(): void {
    this.loop = (async () => {
      while (await sleep(this.everyMs, this.stop.signal)) await this.sample();
    })();
  }

  /** Stops sampling and waits for a sample in progress. */
  async finish(): Promise<void> {
    this.stop.abort();
    await this.loop;
  }

  private async sample(): Promise<void> {
    this.samples++;
    let effects: Effect[];
    try {
      effects = await this.source.sampleDuring();
    } catch {
      this.failed++;
      return;
    }
    const atMs = epochMs();
    for (const e of effects) {
      if (e.argsKey === undefined) continue;
      const s = this.seen.get(e.argsKey);
      if (s) s.lastAtMs = atMs;
      else this.seen.set(e.argsKey, { key: String(e.details?.key ?? e.argsKey), firstAtMs: atMs, lastAtMs: atMs });
    }
  }

  /** The summary against the run's ops and final read-back (history.effects), times from the workload start `t0`. */
  summary(history: History, t0: number): ReadBackDuring {
    const atEnd = new Set<string | undefined>();
    for (const e of history.effects) atEnd.add(e.argsKey);
    // Only the ops whose effect was seen: one pass over the records, a map as large as what was sampled.
    const opOf = new Map<string, OpRecord>();
    for (const { op } of opGroups(history)) if (op?.argsKey && this.seen.has(op.argsKey)) opOf.set(op.argsKey, op);
    const keys = [...this.seen].map(([argsKey, s]): DuringKey => {
      const op = opOf.get(argsKey);
      return {
        key: s.key,
        ...(op && { opId: op.opId, outcome: op.outcome }),
        firstSeenMs: Math.round(s.firstAtMs - t0),
        lastSeenMs: Math.round(s.lastAtMs - t0),
        atEnd: atEnd.has(argsKey),
      };
    });
    return {
      everyMs: this.everyMs,
      samples: this.samples,
      failedSamples: this.failed,
      keys,
      vanished: keys.filter((k) => !k.atEnd).length,
    };
  }
}

/** The report's note on it, one line. */
export function duringNote(d: ReadBackDuring): string {
  const gone = d.keys.filter((k) => !k.atEnd);
  const failedOps = d.keys.filter((k) => k.outcome !== undefined && k.outcome !== 'ok');
  return (
    `read-back during the run: ${d.samples} sample(s) every ${d.everyMs} ms (${d.failedSamples} failed); ` +
    `${d.keys.length} key(s) seen, the first at ${d.keys[0]?.firstSeenMs ?? '-'} ms; ` +
    `${gone.length} seen during the run were gone at the end${gone.length ? ` (${shortList(gone.map((k) => k.key))})` : ''}; ` +
    `${failedOps.length} belonged to ops that did not end ok${failedOps.length ? ` (${shortList(failedOps.map((k) => `${k.opId} ${k.outcome} at ${k.firstSeenMs} ms`))})` : ''}`
  );
}

function shortList(items: string[]): string {
  return items.length <= 3 ? items.join(', ') : `${items.slice(0, 3).join(', ')}, … ${items.length - 3} more`;
}
