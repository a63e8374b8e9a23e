// DNS-rebinding protection: which Host and Origin values the reference server answers.
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { hostRefusal } from '../../../src/server/host-guard.ts';

const request = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;
const refusal = (host: string | undefined, origin?: string, allowed?: string[]) =>
  hostRefusal(request({ ...(host !== undefined && { host }), ...(origin !== undefined && { origin }) }), allowed);

describe('hostRefusal', () => {
  it.each([
    '127.0.0.1',
    '127.0.0.1:3001',
    '127.0.0.1:1',
    'localhost',
    'LOCALHOST:65535',
    '[::1]',
    '[::1]:8080',
    '127.3.4.5:80',
  ])('accepts the loopback Host %s on any port', (host) => {
    expect(refusal(host)).toBeUndefined();
  });

  it.each([
    'evil.example',
    'evil.example:3001',
    'rebind.attacker.example:41234',
    'localhost.evil.example',
    '127.0.0.1.nip.io',
    'evil.example@127.0.0.1',
    '127.0.0.1/../',
    '10.0.0.5:3001',
    '0.0.0.0:3001',
    '',
  ])('refuses the Host %j', (host) => {
    expect(refusal(host)).toMatch(/Host|no Host/);
  });

  it('refuses a request without Host', () => {
    expect(refusal(undefined)).toBe('the request has no Host header');
  });

  it('accepts no Origin or a loopback Origin, and refuses any other', () => {
    expect(refusal('127.0.0.1:3001')).toBeUndefined();
    expect(refusal('127.0.0.1:3001', 'http://localhost:5173')).toBeUndefined();
    expect(refusal('127.0.0.1:3001', 'http://[::1]:5173')).toBeUndefined();
    expect(refusal('127.0.0.1:3001', 'https://evil.example')).toBe(
      'Origin "https://evil.example" is not a loopback origin',
    );
    expect(refusal('127.0.0.1:3001', 'null')).toMatch(/Origin "null"/);
    expect(refusal('127.0.0.1:3001', 'http://evil.example@127.0.0.1')).toMatch(/Origin/);
  });

  it('accepts the names it is told to, in any case, and still refuses others', () => {
    expect(refusal('toxiproxy:26001', undefined, ['toxiproxy'])).toBeUndefined();
    expect(refusal('TOXIPROXY:26001', 'http://toxiproxy:80', ['toxiproxy'])).toBeUndefined();
    expect(refusal('evil.example:26001', undefined, ['toxiproxy'])).toMatch(/not a loopback name/);
  });

  it('quotes at most 60 characters of a hostile header', () => {
    expect(refusal(`${'a'.repeat(500)}.example`)!.length).toBeLessThan(100);
  });
});
