import { describe, expect, it } from 'vitest';
import { epochMs } from '../../../src/core/clock.ts';
import { absolute, relative } from '../../../src/core/relative-time.ts';
import { parseHistories, renderHistories } from '../../../src/report/history-file.ts';
import { renderTrace } from '../../../src/report/trace.ts';
import { EVIL, sampleHistories } from './fixtures.ts';

describe('history.jsonl', () => {
  it('round-trips every profile history, one line each, without model-visible text', () => {
    const histories = sampleHistories();
    histories.good.ops![0] = { ...histories.good.ops![0], visible: 'SECRET-CANARY' };
    histories.good.attempts![0] = { ...histories.good.attempts![0], visible: 'ATTEMPT-CANARY!' };
    histories.good.decisions = [
      ...histories.good.decisions,
      { stream: 'faults/f1', what: 'fires', value: true, keyed: true },
    ];
    const text = renderHistories(histories);
    // Decisions as the decision log writes them.
    expect(text).toContain('"decisions":[["jitter","delay",12],["faults/f1","fires",true,1]]');
    expect(text.trimEnd().split('\n')).toHaveLength(2);
    expect(text).not.toMatch(/SECRET-CANARY|ATTEMPT-CANARY/);
    const back = parseHistories(text, 'h.jsonl');
    expect(Object.keys(back)).toEqual(['good', EVIL]);
    const { visible: _, ...firstOp } = histories.good.ops![0];
    expect(back.good.ops![0]).toEqual({ ...firstOp, visibleChars: 13 });
    const { visible: __, ...firstAttempt } = histories.good.attempts![0];
    // Key order too: the visible text's length goes last, where trace.jsonl puts it.
    expect(JSON.stringify(back.good.attempts![0])).toBe(JSON.stringify({ ...firstAttempt, visibleChars: 15 }));
    expect(JSON.stringify(back[EVIL])).toBe(JSON.stringify(histories[EVIL]));
    expect(back.good.decisions).toEqual(histories.good.decisions);
    // Written again from what was read: the same bytes.
    expect(renderHistories(back)).toBe(text);
  });

  it('keeps an argument string of megabytes as its head and length, as trace.jsonl does', () => {
    const histories = sampleHistories();
    const message = 'm'.repeat(5_000_000);
    histories.good.attempts![0] = { ...histories.good.attempts![0], args: { channel: 'email', message } };
    const text = renderHistories(histories);
    expect(text.length).toBeLessThan(100_000);
    const back = parseHistories(text, 'h.jsonl');
    expect(back.good.attempts![0].args).toEqual({ channel: 'email', message: `${'m'.repeat(64)}… [5000000 chars]` });
    expect(renderTrace(back)).toBe(renderTrace(histories));
    expect(renderHistories(back)).toBe(text);
  });

  it('keeps no secret an attempt carried: arguments, message and notifications as trace.jsonl shows them', () => {
    const histories = sampleHistories();
    histories.good.attempts![0] = {
      ...histories.good.attempts![0],
      args: { api_key: 'k-123', note: 'token=abc123 please', card: 'sk_live_4242' },
      message: `upstream failed with password=flcanaryPWD9Lm4! ${'x'.repeat(600)}\n    at chargeCard (/srv/app/pay.js:1:2)`,
      notifications: ['{"level":"info","data":"Bearer eyJhbGciOi.payload.sig"}'],
    };
    const text = renderHistories(histories);
    expect(text).not.toMatch(/k-123|abc123|sk_live_4242|flcanaryPWD9Lm4|\/srv\/app|eyJhbGciOi/);
    const back = parseHistories(text, 'h.jsonl');
    expect(back.good.attempts![0].args).toEqual({
      api_key: '[redacted]',
      note: 'token=[redacted] please',
      card: '[key redacted]',
    });
    const trace = renderTrace(histories);
    expect(trace).not.toMatch(/k-123|abc123|sk_live_4242|flcanaryPWD9Lm4|\/srv\/app|eyJhbGciOi/);
    expect(trace).toContain('password=[redacted]');
    expect(renderTrace(back)).toBe(trace);
    expect(renderHistories(back)).toBe(text);
  });

  it('writes record times relative and short, and reads them back exactly', () => {
    const start = epochMs();
    // Clock readings as a run takes them, hours into it.
    const times = Array.from({ length: 2000 }, (_, i) => epochMs() + i * 1843.0007);
    const h = sampleHistories().good;
    h.startMs = start;
    h.attempts = times.map((t, i) => ({ opId: `o${i}`, attempt: 1, startMs: t, endMs: t + i * 0.37, ok: true }));
    const text = renderHistories({ p: h });
    const written = JSON.parse(text).history.attempts as { startMs: number; endMs: number }[];
    // Four decimals at most, against the 17 digits of an epoch time.
    expect(Math.max(...written.map((a) => String(a.endMs).length))).toBeLessThanOrEqual(10);
    expect(Math.max(...written.map((a) => String(a.startMs).length))).toBeLessThanOrEqual(13);
    const back = parseHistories(text, 'h.jsonl').p.attempts!;
    expect(back.map((a) => a.startMs)).toEqual(times);
    expect(back.map((a) => a.endMs)).toEqual(h.attempts.map((a) => a.endMs));
  });

  it('gives back exactly a time no four decimals can, and one far from its base', () => {
    for (const [value, base] of [
      [0.1 + 0.2, 0],
      [1e-7, 5],
      [0.1, 1e12 + 0.5],
      [1_700_000_000_000.123, 3],
    ]) {
      expect(absolute(JSON.parse(JSON.stringify(relative(value, base))), base)).toBe(value);
    }
    expect(relative(0.1, 1e12 + 0.5)).toEqual([0.1]);
  });

  it('reads a history.jsonl written before format 2 as it is (epoch times, visible text on attempts)', () => {
    const h = sampleHistories().good;
    h.attempts![0] = { ...h.attempts![0], visible: 'what the model saw' };
    const before = `${JSON.stringify({ profile: 'good', history: h })}\n`;
    const back = parseHistories(before, 'old/history.jsonl');
    expect(JSON.stringify(back.good)).toBe(JSON.stringify(h));
  });

  it('names the file, line and path of what is wrong', () => {
    expect(() => parseHistories('{"profile":"p","history":{}}\n', 'run/history.jsonl')).toThrow(
      /^run\/history\.jsonl:1: history\.startMs: .*\(expected a history\.jsonl line of faultline run, format 2 or none\)$/,
    );
    const later = renderHistories({ p: sampleHistories().good }).replace('"format":2', '"format":3');
    expect(() => parseHistories(later, 'h.jsonl')).toThrow(/^h\.jsonl:1: format: .*format 2 or none\)$/);
    expect(() => parseHistories('\n{oops\n', 'h.jsonl')).toThrow('h.jsonl:2: not a JSON line');
  });
});
