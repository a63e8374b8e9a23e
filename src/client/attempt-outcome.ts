// What one attempt came to: the types the attempt, its failure and the op's tally share (apart from attempt.ts so
// the files that only read an outcome do not import the attempt, which imports them).
import type { AttemptRecord } from '../core/history.ts';
import type { Classified } from './classified.ts';

export type ToolCallResult = { content?: unknown; structuredContent?: unknown; isError?: boolean };

export interface AttemptOutcome {
  classified: Classified;
  result?: ToolCallResult;
  generation: number;
  visible: string;
  /** The recorded attempt; the policy fills in `next` once it decides. */
  record: AttemptRecord;
}
