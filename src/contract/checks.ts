// The idempotency contract: every check, in the order the table shows them.
import { concurrent } from './concurrent.ts';
import { conflict } from './conflict.ts';
import { droppedAnswer } from './dropped-answer.ts';
import { hints } from './hints.ts';
import { sameArgs } from './same-args.ts';
import type { IdempotencyCheck } from './tool-under-test.ts';

export const CHECKS: readonly IdempotencyCheck[] = [sameArgs, conflict, concurrent, droppedAnswer, hints];
