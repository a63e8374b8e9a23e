// The proxy's reused read buffer starts small and grows only when reads fill it: a link of small messages holds
// 16 KiB, not the largest buffer, and a read still referenced (a queued write) costs a fresh buffer of that size.
import { describe, expect, it } from 'vitest';
import { ReusedReadBuffer } from '../../../src/toxiproxy/read-buffer.ts';

/** One read of `bytes` as Node makes it: ask for the buffer, then hand back how much was read into it. */
function read(reader: ReusedReadBuffer, bytes: number): Buffer {
  const buffer = reader.onread.buffer();
  reader.onread.callback(Math.min(bytes, buffer.byteLength), buffer);
  return buffer;
}

describe('ReusedReadBuffer', () => {
  it('reuses one small buffer for small reads', () => {
    const reader = new ReusedReadBuffer();
    reader.consumer = () => false;
    const first = read(reader, 900);
    expect(read(reader, 2_000)).toBe(first);
    expect(first.byteLength).toBe(16 * 1024);
    expect(reader.size).toBe(16 * 1024);
  });

  it('doubles after a read that fills the buffer, up to 256 KiB', () => {
    const reader = new ReusedReadBuffer();
    reader.consumer = () => false;
    const sizes = Array.from({ length: 7 }, () => read(reader, 1 << 30).byteLength);
    expect(sizes).toEqual([16, 32, 64, 128, 256, 256, 256].map((k) => k * 1024));
  });

  it('reads into a fresh buffer of the same size when the last read is still referenced', () => {
    const reader = new ReusedReadBuffer();
    let keep = true;
    reader.consumer = () => keep;
    const first = read(reader, 100);
    keep = false;
    const second = read(reader, 100);
    expect(second).not.toBe(first);
    expect(second.byteLength).toBe(first.byteLength);
    expect(read(reader, 100)).toBe(second);
  });
});
