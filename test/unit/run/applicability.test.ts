// Which profiles are n/a in which pairing: a fault on a mechanism the 2026-07-28 wire removed makes the profile
// n/a for the pairings that speak that era and only for them; the stdio profiles run in every pairing (SDK 2.4's
// serveStdio is the reference stdio server's modern and dual front end).
import { describe, expect, it } from 'vitest';
import { PAIRINGS, pairingsOf } from '../../../src/core/pairing.ts';
import { loadProfile } from '../../../src/profile/load.ts';
import { notApplicable } from '../../../src/run/applicability.ts';

const profile = (name: string) => loadProfile(`chaos-profiles/${name}.yaml`).profile;
const naIn = (name: string) => PAIRINGS.filter((p) => notApplicable(profile(name), p) !== undefined).map((p) => p.name);

describe('pairings', () => {
  it('auto is two pairings (SDK 2.4 negotiating, SDK 1.32) and matrix is all four', () => {
    expect(pairingsOf('auto').map((p) => p.name)).toEqual(['auto', 'auto-sdk1']);
    expect(pairingsOf('matrix').map((p) => p.name)).toEqual(['legacy', 'modern', 'auto', 'auto-sdk1']);
    expect(pairingsOf('modern')[0]).toMatchObject({ server: 'sdk2', client: { negotiation: { pin: '2026-07-28' } } });
  });
});

describe('not applicable', () => {
  it.each([
    ['session-loss', 'evict-sessions'],
    ['sse-stream-close', 'stream-close'],
    ['get-stream-drop', 'get-stream-drop'],
    ['protocol-downgrade', 'protocol-version'],
    ['protocol-version-client', 'protocol-version'],
  ])('%s is n/a on the modern wire only (%s), with the reason', (name, kind) => {
    expect(naIn(name)).toEqual(['modern', 'auto']);
    expect(notApplicable(profile(name), pairingsOf('modern')[0])).toContain(kind);
  });

  it.each(['dependency-5xx', 'sse-cut', 'mcp-edge-5xx', 'server-crash', 'cancellation'])(
    '%s applies in every pairing',
    (name) => {
      expect(naIn(name)).toEqual([]);
    },
  );

  it.each(['stdio-crash', 'stdio-slow-writes', 'stdio-malformed-line', 'stdio-oversized-line'])(
    '%s runs in every pairing (stdio on SDK 2.4)',
    (name) => {
      expect(naIn(name)).toEqual([]);
    },
  );
  it('the 2026-07-28 era kinds apply where their mechanism exists, n/a elsewhere with the reason', () => {
    expect(naIn('drop-after-commit')).toEqual([]);
    expect(naIn('stream-abandon')).toEqual(['legacy', 'auto', 'auto-sdk1']);
    expect(naIn('stream-abandon-ignored')).toEqual(['legacy', 'auto', 'auto-sdk1']);
    expect(notApplicable(profile('stream-abandon'), pairingsOf('legacy')[0])).toMatch(/not a cancellation/);
    expect(naIn('unsupported-version')).toEqual(['legacy', 'modern', 'auto-sdk1']);
    expect(notApplicable(profile('unsupported-version'), pairingsOf('modern')[0])).toMatch(/2026-07-28 envelope/);
  });

  it.each([
    ['mcp-header-strip', 'mcp-headers'],
    ['discover-faults', 'discover'],
    ['input-round-lost', 'input-round'],
    ['request-state-tampered', 'input-round'],
    ['request-state-expired', 'input-round'],
    ['task-poll-errors', 'settle_batch'],
    ['task-cancel-race', 'settle_batch'],
    ['task-server-restart', 'settle_batch'],
    ['listen-cut', 'subscriptions/listen'],
  ])('%s exists only on the modern wire (%s): n/a in the legacy-era pairings, with the reason', (name, kind) => {
    expect(naIn(name)).toEqual(['legacy', 'auto-sdk1']);
    expect(notApplicable(profile(name), pairingsOf('legacy')[0])).toContain(kind);
  });
});
