// Safety: Faultline only talks to, and binds, loopback unless the user says otherwise explicitly. The one loopback
// rule, for URL targets, network backends, the embedded Toxiproxy and msw's pass-through.
import { isIP } from 'node:net';

/**
 * True for `localhost`, 127.0.0.0/8, ::1 in any spelling (`0:0:0:0:0:0:0:1`) and IPv4-mapped 127.x.x.x
 * (`::ffff:127.0.0.1`, which URL.hostname spells `[::ffff:7f00:1]`). Brackets from URL.hostname and a zone id are
 * ignored.
 */
export function isLoopbackHost(host: string): boolean {
  const bare = host
    .replace(/^\[|\]$/g, '')
    .replace(/%.*$/, '')
    .toLowerCase();
  if (bare === 'localhost') return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  if (isIP(bare) !== 6) return false;
  const g = ipv6Groups(bare);
  const zerosUpTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zerosUpTo(7) && g[7] === 1) return true;
  return zerosUpTo(5) && g[5] === 0xffff && g[6] >> 8 === 127;
}

/** The eight 16-bit groups of a valid IPv6 address (checked by isIP), with `::` expanded and a dotted IPv4 tail. */
function ipv6Groups(address: string): number[] {
  let text = address;
  const tail: number[] = [];
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number);
    tail.push((a << 8) | b, (c << 8) | d);
    text = text.slice(0, v4.index);
    if (text.endsWith(':') && !text.endsWith('::')) text = text.slice(0, -1);
  }
  const groups = (part: string) => (part === '' ? [] : part.split(':').map((x) => Number.parseInt(x, 16)));
  const [head, rest] = text.split('::');
  const before = groups(head);
  const after = [...(rest === undefined ? [] : groups(rest)), ...tail];
  if (rest === undefined) return [...before, ...after];
  return [...before, ...Array<number>(8 - before.length - after.length).fill(0), ...after];
}
