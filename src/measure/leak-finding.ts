// What the leak scan (leaks.ts) reports of a planted canary that reached content the model sees.
export interface LeakFinding {
  opId: string;
  /** Where the canary showed up: the op's final visible content, an attempt's content, or a notification. */
  where: 'visible' | 'attempt' | 'notification';
  /** Which canary (mocks/canaries.ts CANARY_MARKERS key). */
  kind: string;
  /** The marker, masked so the report itself does not repeat it. */
  canary: string;
}
