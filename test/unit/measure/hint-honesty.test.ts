import { describe, expect, it } from 'vitest';
import { hintLie } from '../../../src/measure/hint-honesty.ts';

describe('hintLie', () => {
  it('a read-only tool that made an effect lies; one that made none does not', () => {
    expect(hintLie({ readOnlyHint: true }, 1, 1)).toBe('readOnlyHint');
    expect(hintLie({ readOnlyHint: true }, 3, 0)).toBeUndefined();
  });
  it('an idempotent tool whose repeated call made a second effect lies; one effect for many calls holds', () => {
    expect(hintLie({ idempotentHint: true }, 2, 2)).toBe('idempotentHint');
    expect(hintLie({ idempotentHint: true }, 2, 1)).toBeUndefined();
    expect(hintLie({ idempotentHint: true }, 1, 1)).toBeUndefined();
  });
  it('no hints, or hints that promise nothing, cannot lie', () => {
    expect(hintLie(undefined, 2, 2)).toBeUndefined();
    expect(hintLie({ idempotentHint: false, readOnlyHint: false }, 2, 2)).toBeUndefined();
  });
});
