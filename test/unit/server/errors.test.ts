// What the reference server claims about a failed dependency call: `details.uncertain` only where the dependency
// can have acted (mayHaveActed's table in server/errors.ts), and never for a read.
import { describe, expect, it } from 'vitest';
import { DependencyFailure, type FailureKind, mapDependencyFailure, mayHaveActed } from '../../../src/server/errors.ts';

const failure = (kind: FailureKind, info: { status?: number; cause?: string } = {}, sideEffecting = true) =>
  new DependencyFailure(kind, 'payments', { sideEffecting, timeoutMs: 1000, ...info });

describe('mayHaveActed / details.uncertain', () => {
  it.each([
    ['refused connection', failure('network', { cause: 'ECONNREFUSED' }), false],
    ['unresolvable host', failure('network', { cause: 'ENOTFOUND' }), false],
    ['reset after connecting', failure('network', { cause: 'ECONNRESET' }), true],
    ['socket closed mid-response', failure('network', { cause: 'UND_ERR_SOCKET' }), true],
    ['network error without a code', failure('network'), true],
    ['our timeout', failure('timeout'), true],
    ['unreadable answer', failure('bad-response', { status: 201 }), true],
    ['503', failure('status', { status: 503 }), true],
    ['502', failure('status', { status: 502 }), true],
    ['429', failure('status', { status: 429 }), false],
    ['409', failure('status', { status: 409 }), false],
    ['401', failure('status', { status: 401 }), false],
  ] as const)('%s: may have acted = %s', (_what, f, acted) => {
    expect(mayHaveActed(f)).toBe(acted);
    expect(mapDependencyFailure(f, false).body.details?.uncertain === true).toBe(acted);
  });

  it('keeps the socket cause and says plainly what it means', () => {
    const refused = mapDependencyFailure(failure('network', { cause: 'ECONNREFUSED' }), false).body;
    expect(refused).toMatchObject({
      errorCode: 'DEPENDENCY.NETWORK',
      retryable: true,
      details: { cause: 'ECONNREFUSED' },
    });
    expect(refused.message).toMatch(/nothing was sent/);
    const reset = mapDependencyFailure(failure('network', { cause: 'ECONNRESET' }), false).body;
    expect(reset.message).toMatch(/may have taken effect/);
  });

  it('a read is never uncertain', () => {
    expect(mapDependencyFailure(failure('timeout', {}, false), false).body.details?.uncertain).toBeUndefined();
  });
});
