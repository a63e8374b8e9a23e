// The profiles x pairings table of a run in several protocol pairings (`--protocol auto|matrix`): per profile one
// cell per pairing (its verdict and a few key numbers, or n/a with the reason), and what differs between the
// cells that ran. A difference is a verdict that differs, or a key number whose spread passes its tolerance (run
// noise such as a few ms of recovery is not a difference).
import { METRICS } from './metric-table.ts';
import type { ProfileReport, Verdict } from './profile-report.ts';

/** A profile the run did not run in a pairing, and why (the era removed the mechanism it tests). */
export interface NotApplicable {
  profile: string;
  pairing: string;
  reason: string;
}

export interface MatrixCell {
  verdict: Verdict | 'n/a';
  /** Why n/a, or why the verdict is inert, inconclusive or interrupted. */
  reason?: string;
  control?: boolean;
  /** The key numbers (MATRIX_METRICS), null when n/a. */
  numbers: Record<string, number | null>;
}

export interface MatrixRow {
  profile: string;
  policy: string;
  cells: Record<string, MatrixCell>;
  /** `verdict` and the key numbers that differ between the pairings that ran; empty when they agree. */
  differs: string[];
}

export interface ProtocolMatrix {
  pairings: { name: string; summary: string }[];
  /** The profiles that ran in more than one pairing (or were n/a in one): the ones a comparison is about. */
  rows: MatrixRow[];
}

/** The reason of a cell for a pairing the profile's protocol choice did not name (not a comparison). */
const NOT_CHOSEN = 'not run';

/** A cell the profile's protocol choice named: it ran, or its era made it n/a. */
export const chosen = (cell: MatrixCell): boolean => cell.verdict !== 'n/a' || cell.reason !== NOT_CHOSEN;

/** The key numbers, each with the spread that counts as a difference. */
export const MATRIX_METRICS: Readonly<Record<string, number>> = {
  ops: 0,
  error_rate: 0.05,
  retry_success_rate: 0.05,
  duplicate_effects: 0,
  lost_effects: 0,
  attempts_per_op_max: 0,
  proto_errors: 0,
  recovery_ms: 500,
};

function numbers(report: ProfileReport): Record<string, number | null> {
  return Object.fromEntries(Object.keys(MATRIX_METRICS).map((name) => [name, METRICS[name].get(report.metrics).value]));
}

function differences(cells: MatrixCell[]): string[] {
  const ran = cells.filter((c) => c.verdict !== 'n/a');
  if (ran.length < 2) return [];
  const out = new Set(ran.map((c) => c.verdict)).size > 1 ? ['verdict'] : [];
  for (const [name, tolerance] of Object.entries(MATRIX_METRICS)) {
    const values = ran.map((c) => c.numbers[name]);
    const known = values.filter((v): v is number => v !== null);
    const naDiffers = known.length > 0 && known.length < values.length;
    if (naDiffers || (known.length > 1 && Math.max(...known) - Math.min(...known) > tolerance)) out.push(name);
  }
  return out;
}

export function buildProtocolMatrix(
  pairings: readonly { name: string; summary: string }[],
  reports: readonly ProfileReport[],
  notApplicable: readonly NotApplicable[],
): ProtocolMatrix {
  const keys = [...new Set([...reports.map((r) => r.name), ...notApplicable.map((n) => n.profile)])];
  const all = keys.map((profile): MatrixRow => {
    const cells: Record<string, MatrixCell> = {};
    for (const { name } of pairings) {
      const report = reports.find((r) => r.name === profile && r.pairing === name);
      const na = notApplicable.find((n) => n.profile === profile && n.pairing === name);
      if (report) {
        cells[name] = {
          verdict: report.verdict,
          ...(report.verdictReason && { reason: report.verdictReason }),
          ...(report.control && { control: true }),
          numbers: numbers(report),
        };
      } else {
        const reason = na?.reason ?? NOT_CHOSEN;
        cells[name] = { verdict: 'n/a', reason, numbers: {} };
      }
    }
    const policy = reports.find((r) => r.name === profile)?.policy ?? '';
    return { profile, policy, cells, differs: differences(Object.values(cells)) };
  });
  // A profile that ran in one pairing only has nothing to compare: its own report says it all.
  const rows = all.filter((r) => {
    const cells = Object.values(r.cells);
    return cells.filter(chosen).length > 1 && cells.some((c) => c.verdict !== 'n/a');
  });
  return { pairings: pairings.map(({ name, summary }) => ({ name, summary })), rows };
}
