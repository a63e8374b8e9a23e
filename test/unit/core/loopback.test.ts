// The one loopback rule, including the spellings the three old copies disagreed on.
import { describe, expect, it } from 'vitest';
import { assertLoopbackHost } from '../../../src/cli/assert-loopback.ts';
import { isLoopbackHost } from '../../../src/core/loopback.ts';

describe('isLoopbackHost', () => {
  it.each([
    ['localhost', true],
    ['LOCALHOST', true],
    ['127.0.0.1', true],
    ['127.1.2.3', true],
    ['127.255.255.255', true],
    ['::1', true],
    ['[::1]', true],
    ['0:0:0:0:0:0:0:1', true],
    ['[0:0:0:0:0:0:0:1]', true],
    ['0000:0000:0000:0000:0000:0000:0000:0001', true],
    ['::0:1', true],
    ['::1%lo0', true],
    ['::ffff:127.0.0.1', true],
    ['[::ffff:127.0.0.1]', true],
    ['::FFFF:127.9.8.7', true],
    ['::ffff:7f00:1', true],
    ['[::ffff:7f00:1]', true],
    ['0:0:0:0:0:ffff:127.0.0.1', true],
    ['0.0.0.0', false],
    ['128.0.0.1', false],
    ['10.0.0.1', false],
    ['::', false],
    ['::2', false],
    ['1::1', false],
    ['::ffff:10.0.0.1', false],
    ['::ffff:8000:1', false],
    ['::127.0.0.1', false],
    ['fe80::1', false],
    ['127.0.0.1.example.com', false],
    ['localhost.example.com', false],
    ['example.com', false],
    ['', false],
  ])('%j -> %s', (host, loopback) => {
    expect(isLoopbackHost(host)).toBe(loopback);
  });

  it.each([
    ['http://[::ffff:127.0.0.1]:3001/mcp', true],
    ['http://[0:0:0:0:0:0:0:1]:3001/mcp', true],
    ['http://127.1:3001/mcp', true],
    ['http://localhost/mcp', true],
    ['http://[::ffff:10.0.0.1]/mcp', false],
    ['https://payments.faultline.test/v1/charges', false],
  ])('URL.hostname of %s -> %s', (url, loopback) => {
    expect(isLoopbackHost(new URL(url).hostname)).toBe(loopback);
  });

  it('assertLoopbackHost refuses a non-loopback host unless allowed, naming the flag', () => {
    expect(() => assertLoopbackHost('10.0.0.1', false, '--host')).toThrow(/--host 10\.0\.0\.1: not a loopback/);
    expect(() => assertLoopbackHost('10.0.0.1', true, '--host')).not.toThrow();
    expect(() => assertLoopbackHost('::ffff:127.0.0.1', false, '--host')).not.toThrow();
  });
});
