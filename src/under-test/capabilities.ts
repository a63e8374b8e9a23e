// What a target can do (each kind's file in kinds/ declares it), known before anything runs: the profile loader
// checks every fault kind's declared `needs` against it and turns a mismatch into a one-line error ("fault kind
// crash needs a target the harness can restart").
import { targetKind } from './kinds/index.ts';
import type { TargetShape } from './kinds/kind.ts';
import { CAPABILITY_WORDS, type TargetCapability } from './target.ts';

function targetCapabilities(target: TargetShape): ReadonlySet<TargetCapability> {
  return new Set(targetKind(target.kind)?.capabilities(target) ?? []);
}

/** Why this target cannot take a fault that needs these capabilities, or undefined when it can. */
export function unsupportedFault(
  target: TargetShape,
  fault: { kind: string; needs: readonly TargetCapability[] },
): string | undefined {
  return unsupported(target, `fault kind ${fault.kind}`, fault.needs);
}

/** Why this target cannot take what `what` names (a fault kind, a profile block), or undefined when it can. */
export function unsupported(target: TargetShape, what: string, needs: readonly TargetCapability[]): string | undefined {
  const has = targetCapabilities(target);
  const missing = needs.find((need) => !has.has(need));
  if (missing === undefined) return undefined;
  const lacking = targetKind(target.kind)?.lacking?.(target, missing);
  return `${what} needs ${CAPABILITY_WORDS[missing]}; target kind ${target.kind}${target.over ? ` over ${target.over}` : ''}${lacking ? ` ${lacking}` : ''} cannot take it`;
}
