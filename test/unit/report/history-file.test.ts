import { describe, expect, it } from 'vitest';
import { parseHistories, renderHistories } from '../../../src/report/history-file.ts';
import { EVIL, sampleHistories } from './fixtures.ts';

describe('history.jsonl', () => {
  it('round-trips every profile history, one line each, without model-visible text', () => {
    const histories = sampleHistories();
    histories.good.ops![0] = { ...histories.good.ops![0], visible: 'SECRET-CANARY' };
    const text = renderHistories(histories);
    expect(text.trimEnd().split('\n')).toHaveLength(2);
    expect(text).not.toContain('SECRET-CANARY');
    const back = parseHistories(text, 'h.jsonl');
    expect(Object.keys(back)).toEqual(['good', EVIL]);
    const { visible: _, ...firstOp } = histories.good.ops![0];
    expect(back.good.ops![0]).toEqual({ ...firstOp, visibleChars: 13 });
    expect(back[EVIL]).toEqual(histories[EVIL]);
  });

  it('names the file, line and path of what is wrong', () => {
    expect(() => parseHistories('{"profile":"p","history":{}}\n', 'run/history.jsonl')).toThrow(
      /^run\/history\.jsonl:1: history\.startMs: /,
    );
    expect(() => parseHistories('\n{oops\n', 'h.jsonl')).toThrow('h.jsonl:2: not a JSON line');
  });
});
