// Checks that need more than the schema (which already checked each fault's kind and parameters): what the target
// can take, tool names, thresholds, windows, and the timeout layering the seeds prescribe (client > server >
// dependency).
import { didYouMean } from '../core/did-you-mean.ts';
import { type DocPath, excerpt } from '../core/profile-error.ts';
import { PER_REQUEST_SEAMS, scopesPerRequest } from '../faults/kind.ts';
import { findFaultKind } from '../faults/registry.ts';
import { parseThreshold, ThresholdError } from '../measure/thresholds.ts';
import { REFERENCE_TOOLS } from '../server/tools/catalog.ts';
import { unsupported, unsupportedFault } from '../under-test/capabilities.ts';
import { kindsTaking, targetKind } from '../under-test/kinds/index.ts';
import { openModelOpCount } from './open-model.ts';
import { type FaultEntry, isReferenceKind, type Profile } from './schema.ts';
import { thresholdsThatCannotFail } from './threshold-lint.ts';

/** Reports a problem; the check goes on to find the rest. */
type Fail = (path: DocPath, problem: string) => void;

export function checkProfile(profile: Profile, fail: Fail): string[] {
  profile.faults.forEach((fault, i) => {
    // The schema's fault union only admits registered kinds.
    const kind = findFaultKind(fault.seam, fault.kind)!;
    const intercept = profile.effects?.intercept !== undefined;
    const unsupported = unsupportedFault({ ...profile.target, intercept }, kind);
    if (unsupported) fail(['faults', i, 'kind'], unsupported);
    // Intercepted requests belong to the profile's own dependencies, not to the reference server's named APIs.
    if (intercept && fault.seam === 'dependency' && (fault as { dependency?: string }).dependency !== '*')
      fail(['faults', i, 'dependency'], 'expected * (every intercepted dependency) on an intercepted stdio target');
    checkWindow(profile, fault, i, fail);
  });

  // The listen stream is a connection of its own beside the workload's, opened by URL: a pipe has room for one.
  const listenUnsupported = profile.listen && unsupported(profile.target, 'subscriptions/listen', ['http-edge']);
  if (listenUnsupported) fail(['listen'], listenUnsupported);

  // Read-back probes and the interception preload are how a foreign server's effects are seen; the reference
  // server has its ledger.
  const sources = targetKind(profile.target.kind)?.effectSources ?? [];
  const kind = profile.target.kind;
  if (profile.effects && !sources.includes('read-back'))
    fail(
      ['effects'],
      `expected a target of kind ${kindsTaking('read-back')} (target kind ${kind} has its own ledger or none)`,
    );
  if (profile.effects?.intercept && !sources.includes('intercept'))
    fail(
      ['effects', 'intercept'],
      `expected a target of kind ${kindsTaking('intercept')} (a Node server Faultline starts), not ${kind}`,
    );

  if (isReferenceKind(profile.target.kind)) {
    profile.workload.mix.forEach((item, i) => {
      if (!Object.hasOwn(REFERENCE_TOOLS, item.tool)) {
        fail(
          ['workload', 'mix', i, 'tool'],
          `unknown tool ${excerpt(item.tool)}${didYouMean(item.tool, Object.keys(REFERENCE_TOOLS))}; expected one of: ${Object.keys(REFERENCE_TOOLS).join(', ')}`,
        );
      }
    });
  }

  profile.workload.mix.forEach((item, i) => {
    if (item.statusTool !== undefined && item.idempotencyKeyArg === undefined)
      fail(['workload', 'mix', i, 'statusTool'], 'a status lookup asks by idempotency key: set idempotencyKeyArg too');
  });

  let thresholdsParse = true;
  const checkThresholds = (exprs: readonly string[], path: DocPath) =>
    exprs.forEach((expr, i) => {
      try {
        parseThreshold(expr);
      } catch (error) {
        if (!(error instanceof ThresholdError)) throw error;
        thresholdsParse = false;
        fail([...path, i], shortenQuoted(error.message, expr));
      }
    });
  checkThresholds(profile.expect, ['expect']);
  for (const [policy, exprs] of Object.entries(profile.controls)) checkThresholds(exprs ?? [], ['controls', policy]);

  // The lint reads every threshold: only once they all parse.
  const warnings: string[] = thresholdsParse ? thresholdsThatCannotFail(profile) : [];
  const { attemptTimeoutMs, deadlineMs } = profile.client;
  // The deadline cuts every attempt short: attemptTimeoutMs never applies and no retry can happen.
  if (deadlineMs < attemptTimeoutMs)
    fail(
      ['client', 'deadlineMs'],
      `expected at least one attempt's time (client.attemptTimeoutMs ${attemptTimeoutMs}), found ${deadlineMs}`,
    );

  const dependencyTimeoutMs = 'dependencyTimeoutMs' in profile.target ? profile.target.dependencyTimeoutMs : undefined;
  if (dependencyTimeoutMs !== undefined && attemptTimeoutMs <= dependencyTimeoutMs) {
    warnings.push(
      `timeout layering broken: client.attemptTimeoutMs (${attemptTimeoutMs}) should exceed target.dependencyTimeoutMs (${dependencyTimeoutMs}); the client gives up while the server still waits on the dependency, which invites ghost writes`,
    );
  }
  return warnings;
}

/** A threshold message quotes the expression and its parts: each long one is cut to an excerpt. */
function shortenQuoted(message: string, expr: string): string {
  const parts = [expr, expr.trim(), ...expr.split(/\s+|[<>=!]=?/)].filter((p) => p.length > 0);
  return parts.reduce((text, part) => text.replaceAll(`"${part}"`, excerpt(part)), message);
}

/** A window is a time window (start, stop) or an op window (fromOp, toOp, firstAttempts), whole and in range. */
function checkWindow(profile: Profile, fault: FaultEntry, i: number, fail: Fail): void {
  const at = (field: string): DocPath => ['faults', i, field];
  if (fault.start !== undefined && fault.fromOp !== undefined)
    fail(at('fromOp'), 'expected either start (a time window) or fromOp (an op window), not both');
  if (fault.start !== undefined) {
    for (const field of ['toOp', 'firstAttempts'] as const)
      if (fault[field] !== undefined) fail(at(field), `${field} belongs to an op window: expected fromOp, not start`);
    if (fault.stop !== undefined && fault.stop <= fault.start)
      fail(at('stop'), `expected a stop after start (${fault.start} ms)`);
    if (fault.start >= profile.duration)
      fail(at('start'), `expected a start within the duration (${profile.duration} ms)`);
    return;
  }
  if (fault.fromOp === undefined) {
    fail(['faults', i], 'expected a window: start (ms after the workload starts) or fromOp (an op index)');
    return;
  }
  if (fault.stop !== undefined) fail(at('stop'), 'stop belongs to a time window: an op window closes after toOp');
  const { rate, ops } = profile.workload;
  const count = rate ? openModelOpCount(profile) : ops;
  if (count === undefined) {
    fail(
      at('fromOp'),
      'an op window needs a known number of ops: expected workload.rate, or workload.ops with concurrency',
    );
    return;
  }
  if (fault.fromOp >= count) fail(at('fromOp'), `expected an op index below the workload's ${count} ops`);
  if (fault.toOp !== undefined && fault.toOp < fault.fromOp)
    fail(at('toOp'), `expected a toOp at or after fromOp (${fault.fromOp})`);
  if (fault.toOp !== undefined && fault.toOp >= count)
    fail(at('toOp'), `expected an op index below the workload's ${count} ops`);
  if (fault.firstAttempts !== undefined && !scopesPerRequest(fault.seam))
    fail(
      at('firstAttempts'),
      `expected a ${PER_REQUEST_SEAMS.join(' or ')} fault: a ${fault.seam} fault cannot tell one op's attempts from another's`,
    );
}
