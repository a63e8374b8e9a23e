// The resilient policy, as the seeds advise: classify; retry only what is retryable, with seeded full-jitter
// backoff that honours Retry-After; a per-attempt timeout inside an overall deadline; one stable idempotency
// key per logical call; look the status up before re-executing an uncertain side effect; re-initialize when
// the session is lost and reconnect when the transport is. Optionally behind a circuit breaker per tool shared
// by the run's ops, and with a credential hook (an AUTH failure is retried once, after a refresh). The model
// may correct a call the server rejected. A discovery probe answered with a bare 400 is probed again (no fallback).
import { credentialHookFor } from '../credentials.ts';
import type { ClientPolicy } from '../policy.ts';
import { attemptTimeout } from '../units/attempt-timeout.ts';
import { Breakers, circuitBreaker } from '../units/circuit-breaker.ts';
import { classifiedRetry } from '../units/classified-retry.ts';
import { credentialRefresh } from '../units/credential-refresh.ts';
import { deadline } from '../units/deadline.ts';
import { sessionRenewal } from '../units/session-renewal.ts';
import { statusLookup } from '../units/status-lookup.ts';
import { composedOps } from './compose.ts';

export const resilientPolicy: ClientPolicy = {
  name: 'resilient',
  // A bare 400 to server/discover is no evidence of a 2025-era server: probe again rather than fall back.
  connection: { reprobeBareFallback: true },
  // A listen stream that ended is opened again (pauses from 50 ms doubling to 1 s, at most 20 times a run) and the
  // resource read once it is acknowledged: what was announced while no stream was open is caught up.
  listen: { relisten: { max: 20, backoffMs: 50, maxMs: 1000 }, catchUp: true },
  forRun(run) {
    const breakers = run.client.breaker && new Breakers(run.client.breaker, run.recordBreakerEvent);
    const credentials = credentialHookFor(run);
    return composedOps(
      run,
      (op) => ({
        units: [
          classifiedRetry(op),
          ...(breakers ? [circuitBreaker(op, breakers)] : []),
          deadline(op),
          attemptTimeout(op),
          sessionRenewal(op),
          ...(credentials ? [credentialRefresh(op, credentials)] : []),
          statusLookup(op),
        ],
        // A failed tasks/get is polled again by the task's id (Retry-After honoured): the task is not created twice.
        attempt: { trustsCancel: true, resumePolls: 8 },
      }),
      { selfCorrects: true },
    );
  },
};
