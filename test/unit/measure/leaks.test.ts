import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CANARIES, CANARY_MARKERS } from '../../../mocks/canaries.ts';
import type { AttemptRecord, OpRecord } from '../../../src/core/history.ts';
import { findLeaks, LeakScanner, leaksByKind, mask } from '../../../src/measure/leaks.ts';
import { computeMetrics } from '../../../src/measure/metrics.ts';
import { Recorder } from '../../../src/run/recorder.ts';
import { attempt, history, op } from './fixtures.ts';

const MARKERS = { token: 'sk_live_CANARY_123456', password: 'db-pass-CANARY-9' };

describe('findLeaks', () => {
  const h = history({
    ops: [
      op('clean', 0, 10, 'ok', { visible: 'charged 12.00 EUR' }),
      op('leaky', 0, 10, 'ok', { visible: 'token sk_live_CANARY_123456 and again sk_live_CANARY_123456' }),
      op('both', 0, 10, 'fail', { visible: 'sk_live_CANARY_123456 / db-pass-CANARY-9' }),
      op('silent', 0, 10, 'fail'),
    ],
    attempts: [
      attempt('silent', 1, 0, 5, false, { message: 'connect failed: password=db-pass-CANARY-9' }),
      attempt('silent', 2, 5, 10, false, { message: 'again: password=db-pass-CANARY-9' }),
    ],
  });

  it('finds each canary kind once per op and place, and counts by kind', () => {
    const leaks = findLeaks(h, { canaries: MARKERS });
    expect(leaks.map((l) => [l.opId, l.where, l.kind])).toEqual([
      ['both', 'visible', 'token'],
      ['both', 'visible', 'password'],
      ['leaky', 'visible', 'token'],
      ['silent', 'attempt', 'password'],
    ]);
    expect(leaksByKind(leaks, { canaries: MARKERS })).toEqual({ token: 2, password: 2 });
  });

  it('never repeats the secret in the finding', () => {
    for (const l of findLeaks(h, { canaries: MARKERS })) {
      expect(Object.values(MARKERS)).not.toContain(l.canary);
      expect(l.canary).toMatch(/^(sk_l|db-p)\*+$/);
    }
    expect(mask('abc')).toBe('***');
  });

  it('finds nothing without canaries', () => {
    expect(findLeaks(h)).toHaveLength(0);
    expect(findLeaks(h, { canaries: { empty: '' } })).toHaveLength(0);
  });

  it('finds a multi-line secret inside JSON-escaped text, unicode escapes, and notifications', () => {
    // The stack-trace canary has newlines: serialised into JSON they become \n, so the whole string never matches.
    const asJson = JSON.stringify({ error: { message: 'upstream', details: { raw: CANARIES.stackTrace } } });
    expect(asJson.includes(CANARIES.stackTrace)).toBe(false);
    const escaped = JSON.stringify(`token=${CANARY_MARKERS.bearerToken}`).replace(/f/g, '\\u0066');
    expect(escaped.includes(CANARY_MARKERS.bearerToken)).toBe(false);
    const found = findLeaks(
      history({
        ops: [op('a', 0, 10, 'fail')],
        attempts: [
          attempt('a', 1, 0, 5, false, { visible: asJson }),
          attempt('a', 2, 5, 10, false, { visible: escaped, notifications: [`progress: ${CANARIES.sql}`] }),
        ],
      }),
      { canaries: CANARY_MARKERS },
    );
    expect(found.map((f) => [f.where, f.kind])).toEqual([
      ['attempt', 'stackTrace'],
      ['attempt', 'bearerToken'],
      ['notification', 'sql'],
    ]);
  });
});

describe('the leak scan as ops end', () => {
  const run: { attempts: AttemptRecord[]; op: OpRecord }[] = [
    { attempts: [], op: op('clean', 0, 10, 'ok', { visible: 'charged 12.00 EUR' }) },
    {
      attempts: [attempt('silent', 1, 0, 5, false, { message: 'password=db-pass-CANARY-9', notifications: ['x'] })],
      op: op('silent', 0, 10, 'fail'),
    },
    { attempts: [], op: op('leaky', 0, 10, 'ok', { visible: 'token sk_live_CANARY_123456' }) },
    // Its attempt showed a clean answer: the op's own text (a leak) is not what the model saw last.
    {
      attempts: [attempt('shown', 1, 0, 5, true, { visible: 'clean' })],
      op: op('shown', 0, 10, 'ok', { visible: 'sk_live_CANARY_123456' }),
    },
  ];
  const recorded = (canaries: Record<string, string>) => {
    const recorder = new Recorder({ spill: true, metrics: { canaries } });
    for (const { attempts, op: o } of run) {
      for (const a of attempts) recorder.attempt(a);
      recorder.op(o);
    }
    return { recorder, h: recorder.history([], []) };
  };

  it('finds what a scan of the recorded history finds, and judging takes it from the feed', () => {
    const { recorder, h } = recorded(MARKERS);
    const fromHistory = findLeaks(h, { canaries: MARKERS });
    expect(fromHistory.map((l) => [l.opId, l.where, l.kind])).toEqual([
      ['leaky', 'visible', 'token'],
      ['silent', 'attempt', 'password'],
    ]);
    // A history with no records: whatever computeMetrics reports came from the feed, not from reading them again.
    const metrics = computeMetrics(history(), { canaries: MARKERS }, recorder.feed);
    expect(metrics.leakFindings).toEqual(fromHistory);
  });

  it('scans the history again when the feed looked for other canaries', () => {
    const { recorder, h } = recorded({ token: MARKERS.token });
    expect(computeMetrics(h, { canaries: MARKERS }, recorder.feed).leaks).toBe(2);
    expect(computeMetrics(history(), { canaries: MARKERS }, recorded({}).recorder.feed).leaks).toBe(0);
  });

  // Text with no backslash is searched as it is; a marker with a newline in it turns that off, which makes the
  // full decoding the reference for the same marker.
  it('searches undecoded text only where decoding could not change the answer', () => {
    const marker = 'flcanaryX7';
    const piece = fc.constantFrom(
      marker,
      'flcanary',
      'lcanaryX7',
      'X7',
      '\\u0066',
      '\\',
      '\\n',
      '"',
      '{',
      '}',
      ':',
      ',',
      '[',
      ']',
      'a',
    );
    const text = fc.oneof(
      fc.array(piece, { maxLength: 12 }).map((p) => p.join('')),
      fc.array(piece, { maxLength: 6 }).map((p) => JSON.stringify({ note: p.join('') })),
      // The marker with some of its letters as unicode escapes: text of its own, or a JSON string.
      fc.array(fc.boolean(), { minLength: marker.length, maxLength: marker.length }).chain((escaped) => {
        const hidden = [...marker].map((c, i) =>
          escaped[i] ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}` : c,
        );
        return fc.constantFrom(hidden.join(''), `"${hidden.join('')}"`, JSON.stringify({ note: hidden.join('') }));
      }),
    );
    fc.assert(
      fc.property(text, (t) => {
        const scan = (canaries: Record<string, string>) => {
          const scanner = new LeakScanner(canaries);
          scanner.attempt({ opId: 'o', attempt: 1, startMs: 0, endMs: 1, ok: true, visible: t });
          return scanner.result().filter((f) => f.kind === 'x');
        };
        expect(scan({ x: marker })).toEqual(scan({ x: marker, y: 'never\nthere' }));
      }),
      { numRuns: 500 },
    );
  });
});
