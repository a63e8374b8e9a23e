// A --host flag must be loopback unless the user passed --allow-non-loopback.
import { isLoopbackHost } from '../core/loopback.ts';
import { UserError } from './user-error.ts';

export function assertLoopbackHost(host: string, allowed: boolean, flag: string): void {
  if (!allowed && !isLoopbackHost(host)) {
    throw new UserError(`${flag} ${host}: not a loopback address; pass --allow-non-loopback to use it anyway`);
  }
}
