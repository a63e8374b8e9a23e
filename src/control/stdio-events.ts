// The stdio server's side channel to the harness: with --events, each effect, dependency state change and
// decision is written to stderr as `@faultline {json}` (one line, synchronous on a Linux pipe), so the harness
// keeps them even when the process is killed. Other stderr lines are ordinary logs.
import type { StateRecord } from '../../mocks/state.ts';
import type { DecisionRecord } from '../core/history.ts';
import type { Effect } from '../core/ledger.ts';

export const STDIO_EVENT_PREFIX = '@faultline ';

export type StdioEvent =
  | { type: 'effect'; effect: Effect }
  | { type: 'state'; record: StateRecord }
  | { type: 'decision'; decision: DecisionRecord };

/** The event on a stderr line, or undefined for an ordinary log line. */
export function parseStdioEvent(line: string): StdioEvent | undefined {
  if (!line.startsWith(STDIO_EVENT_PREFIX)) return undefined;
  try {
    return JSON.parse(line.slice(STDIO_EVENT_PREFIX.length)) as StdioEvent;
  } catch {
    return undefined;
  }
}
