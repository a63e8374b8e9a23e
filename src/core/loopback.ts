// Safety: Faultline only talks to, and binds, loopback unless the user says otherwise explicitly.
import { isIP } from 'node:net';
import { UserError } from '../cli/user-error.ts';

export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h === '::1') return true;
  return isIP(h) === 4 && h.startsWith('127.');
}

export function assertLoopbackHost(host: string, allowed: boolean, flag: string): void {
  if (!allowed && !isLoopbackHost(host)) {
    throw new UserError(`${flag} ${host}: not a loopback address; pass --allow-non-loopback to use it anyway`);
  }
}
