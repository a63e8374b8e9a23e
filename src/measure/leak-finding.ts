// What the leak scan (leaks.ts) reports of a planted canary that reached content the model sees.

/** Where a canary can show up: the op's final visible content, an attempt's content, or a notification. */
export const LEAK_PLACES = ['visible', 'attempt', 'notification'] as const;

export interface LeakFinding {
  opId: string;
  where: (typeof LEAK_PLACES)[number];
  /** Which canary (mocks/canaries.ts CANARY_MARKERS key). */
  kind: string;
  /** The marker, masked so the report itself does not repeat it. */
  canary: string;
}
