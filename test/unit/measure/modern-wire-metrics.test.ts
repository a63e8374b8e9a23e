// The 2026-07-28 wire's own metrics: discovery probes (retries, failures, wrong fallbacks) and tampered Mcp-*
// headers (refused or dispatched). Each is n/a when there was nothing to measure, never the passing value.
import { describe, expect, it } from 'vitest';
import type { DiscoveryProbe } from '../../../src/core/history.ts';
import { METRICS } from '../../../src/measure/metric-table.ts';
import { computeMetrics } from '../../../src/measure/metrics.ts';
import { attempt, history, T0 } from './fixtures.ts';

const probe = (at: number, outcome: DiscoveryProbe['outcome'], ms = 5): DiscoveryProbe => ({
  atMs: T0 + at,
  ms,
  outcome,
});
const value = (h: ReturnType<typeof history>, metric: string) => METRICS[metric].get(computeMetrics(h));

describe('discovery metrics', () => {
  it('are n/a when no connect probed server/discover', () => {
    for (const name of ['discovery_probes', 'discovery_retries', 'discovery_failed_probes', 'wrong_fallbacks']) {
      expect(value(history({ serverSpeaksModern: true }), name)).toMatchObject({ value: null, na: true });
    }
  });

  it('count probes sent after a failed probe, failed probes, the slowest, and wrong fallbacks', () => {
    const h = history({
      serverSpeaksModern: true,
      discovery: [
        { atMs: T0, probes: [probe(0, 'ok')], negotiated: '2026-07-28' },
        { atMs: T0 + 10, probes: [probe(10, 'http-error')], error: 'HTTP 503' },
        { atMs: T0 + 20, probes: [probe(20, 'bare-400', 40)], negotiated: '2025-11-25' },
        { atMs: T0 + 30, probes: [probe(30, 'ok')], negotiated: '2026-07-28' },
      ],
    });
    expect(value(h, 'discovery_probes').value).toBe(4);
    expect(value(h, 'discovery_failed_probes').value).toBe(2);
    expect(value(h, 'discovery_retries').value).toBe(2);
    expect(value(h, 'discovery_ms_max').value).toBe(40);
    expect(value(h, 'wrong_fallbacks').value).toBe(1);
  });

  it('wrong fallbacks are n/a when the server eras are unknown, 0 against a 2025-only server', () => {
    const discovery = [{ atMs: T0, probes: [probe(0, 'bare-400')], negotiated: '2025-11-25' }];
    expect(value(history({ discovery }), 'wrong_fallbacks')).toMatchObject({ value: null, na: true });
    expect(value(history({ discovery, serverSpeaksModern: false }), 'wrong_fallbacks').value).toBe(0);
  });
});

describe('header tampering metrics', () => {
  it('are n/a when no attempt had its headers rewritten', () => {
    const h = history({ attempts: [attempt('op-1', 1, 0, 10, true, { httpStatus: 200 })] });
    expect(value(h, 'header_mismatch_executed')).toMatchObject({ value: null, na: true });
  });

  it('split tampered attempts into refused (-32020) and dispatched (a 2xx answer)', () => {
    const h = history({
      attempts: [
        attempt('op-1', 1, 0, 10, false, { headerTampered: true, httpStatus: 400, errorCode: 'PROTO.HEADER_MISMATCH' }),
        attempt('op-1', 2, 20, 30, true, { httpStatus: 200 }),
        attempt('op-2', 1, 0, 10, true, { headerTampered: true, httpStatus: 200 }),
      ],
    });
    expect(value(h, 'header_tampered_attempts').value).toBe(2);
    expect(value(h, 'header_mismatch_rejected').value).toBe(1);
    expect(value(h, 'header_mismatch_executed').value).toBe(1);
  });
});
