// Round trips of calls that needed the client's input (2026-07-28 input_required): each attempt is a first round
// plus its retried rounds; a call started again after a lost round costs more. n/a when no round was sent, or when
// no call that needed input completed, never the passing value.
import { describe, expect, it } from 'vitest';
import { isInputRound } from '../../../src/core/input-round.ts';
import { METRICS } from '../../../src/measure/metric-table.ts';
import { computeMetrics } from '../../../src/measure/metrics.ts';
import { attempt, history, op } from './fixtures.ts';

const value = (h: ReturnType<typeof history>, metric: string) => METRICS[metric].get(computeMetrics(h));

describe('input_required rounds', () => {
  it('are n/a when no attempt sent a retried round', () => {
    const h = history({ ops: [op('a', 0, 10)], attempts: [attempt('a', 1, 0, 10, true)] });
    for (const name of ['calls_with_input', 'rounds_per_completed_call']) {
      expect(value(h, name)).toMatchObject({ value: null, na: true });
    }
  });

  it('count first and retried rounds of every attempt of completed calls only', () => {
    const h = history({
      ops: [op('a', 0, 10), op('b', 0, 30), op('c', 0, 30, 'fail')],
      attempts: [
        attempt('a', 1, 0, 10, true, { inputRounds: 1 }),
        // b: a lost round, then the call started again: 2 attempts of 2 rounds.
        attempt('b', 1, 0, 10, false, { inputRounds: 1 }),
        attempt('b', 2, 10, 30, true, { inputRounds: 1 }),
        attempt('c', 1, 0, 30, false, { inputRounds: 3 }),
      ],
    });
    expect(value(h, 'calls_with_input').value).toBe(2);
    expect(value(h, 'rounds_per_completed_call').value).toBe(3);
  });

  it('rounds per completed call is n/a when rounds were sent but no such call completed', () => {
    const h = history({ ops: [op('c', 0, 30, 'fail')], attempts: [attempt('c', 1, 0, 30, false, { inputRounds: 1 })] });
    expect(value(h, 'calls_with_input').value).toBe(0);
    expect(value(h, 'rounds_per_completed_call')).toMatchObject({ value: null, na: true });
  });

  it('a retried round is a request carrying inputResponses or requestState, not a first round', () => {
    const body = (params: object) => JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params });
    expect(isInputRound(body({ name: 't', inputResponses: { confirm: {} } }))).toBe(true);
    expect(isInputRound(body({ name: 't', requestState: 's' }))).toBe(true);
    expect(isInputRound(body({ name: 't', arguments: { note: '"requestState"' } }))).toBe(false);
    expect(isInputRound(undefined)).toBe(false);
  });
});
