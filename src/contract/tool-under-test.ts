// One tool of the target as the idempotency contract's checks see it: its hints and key argument, arguments to
// call it with, the call itself, the effects the judge (ledger or read-back) counts, and the real edge fault that
// loses the next answer after the server committed it.
import type { ToolHints } from '../core/tool-declarations.ts';

export type CallOutcome = { kind: 'result'; isError: boolean; body: string } | { kind: 'error'; message: string };

/** An edge fault in place: how often it acted, and how to take it away. */
export interface DropWindow {
  hits(): Promise<number>;
  remove(): Promise<void>;
}

export interface ToolUnderTest {
  tool: string;
  hints?: ToolHints;
  sideEffecting: boolean;
  /** The argument that carries the idempotency key; undefined when the tool has none (`noKeyReason` says why). */
  keyArg?: string;
  noKeyReason: string;
  /** The profile's arguments for op `variant` (variants differ where the profile's generators do). */
  args(variant: number): Record<string, unknown>;
  /** A key no other call of the suite used. */
  freshKey(): string;
  call(args: Record<string, unknown>): Promise<CallOutcome>;
  /** Effects the judge sees now; a string says why they cannot be seen. */
  effects(): Promise<number | string>;
  /** The edge fault in place; undefined when the target has no HTTP edge (the reference server over stdio). */
  dropAnswers(): Promise<DropWindow | undefined>;
}

export type Verdict = 'pass' | 'fail' | 'n/a';

export interface CheckOutcome {
  verdict: Verdict;
  evidence: string;
}

/** One contract check: a small file each, listed in checks.ts. */
export interface IdempotencyCheck {
  name: string;
  title: string;
  run(tool: ToolUnderTest): Promise<CheckOutcome>;
}

export function withKey(tool: ToolUnderTest, args: Record<string, unknown>, key: string): Record<string, unknown> {
  return tool.keyArg === undefined ? args : { ...args, [tool.keyArg]: key };
}

/** The effects `act` made, or why they cannot be counted. */
export async function effectsOf(tool: ToolUnderTest, act: () => Promise<unknown>): Promise<number | string> {
  const before = await tool.effects();
  if (typeof before === 'string') return before;
  await act();
  const after = await tool.effects();
  return typeof after === 'string' ? after : after - before;
}

/** The checks (a)-(d) need a side-effecting tool with a key argument: why not, or undefined when they apply. */
export function keyedWriteMissing(tool: ToolUnderTest): CheckOutcome | undefined {
  if (!tool.sideEffecting)
    return {
      verdict: 'n/a',
      evidence:
        "read-only (its readOnlyHint, the profile's sideEffect: false, or a reference read): no effect to deduplicate",
    };
  if (tool.keyArg === undefined) return { verdict: 'n/a', evidence: tool.noKeyReason };
  return undefined;
}

export const describe = (o: CallOutcome): string =>
  o.kind === 'error'
    ? `error ${o.message.slice(0, 80)}`
    : `${o.isError ? 'error result' : 'result'} ${o.body.slice(0, 80)}`;
