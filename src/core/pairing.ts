// The protocol pairings a profile runs in: which SDK client, negotiating how, against which server front end
// (core/front-end.ts). `--protocol` (or a profile's `protocol:`) names one choice; `auto` is two pairings (an SDK
// 2.4 client negotiating, and an SDK 1.32 client, against the dual server), `matrix` is every pairing.
import type { FrontEnd } from './front-end.ts';

export interface Pairing {
  name: string;
  /** One line for reports. */
  summary: string;
  /** SDK 1.32's client, or SDK 2.4's with its version negotiation. */
  client: { sdk: 'sdk1' } | { sdk: 'sdk2'; negotiation: 'auto' | { pin: string } };
  /** The reference server's front end (ignored by url targets, which are what they are). */
  server: FrontEnd;
  /** The era the wire speaks once connected (the dual server answers a negotiating SDK 2.4 client in 2026-07-28). */
  era: 'legacy' | 'modern';
}

export const MODERN_VERSION = '2026-07-28';

export const PAIRINGS: readonly Pairing[] = [
  {
    name: 'legacy',
    summary: 'SDK 1.32 client and server, 2025-11-25',
    client: { sdk: 'sdk1' },
    server: 'sdk1',
    era: 'legacy',
  },
  {
    name: 'modern',
    summary: `SDK 2.4 client pinned to ${MODERN_VERSION}, SDK 2.4 server`,
    client: { sdk: 'sdk2', negotiation: { pin: MODERN_VERSION } },
    server: 'sdk2',
    era: 'modern',
  },
  {
    name: 'auto',
    summary: 'SDK 2.4 client in auto negotiation, dual-era server',
    client: { sdk: 'sdk2', negotiation: 'auto' },
    server: 'dual',
    era: 'modern',
  },
  {
    name: 'auto-sdk1',
    summary: 'SDK 1.32 client, dual-era server',
    client: { sdk: 'sdk1' },
    server: 'dual',
    era: 'legacy',
  },
];

export const PROTOCOL_CHOICES = ['legacy', 'modern', 'auto', 'matrix'] as const;
export type ProtocolChoice = (typeof PROTOCOL_CHOICES)[number];

const pairing = (name: string) => PAIRINGS.find((p) => p.name === name)!;

/** The pairings a choice runs, in report column order. */
export function pairingsOf(choice: ProtocolChoice): Pairing[] {
  if (choice === 'matrix') return [...PAIRINGS];
  if (choice === 'auto') return [pairing('auto'), pairing('auto-sdk1')];
  return [pairing(choice)];
}
