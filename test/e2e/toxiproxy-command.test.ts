// `faultline toxiproxy` as a process: ready line, loopback guard, clean exit on signals.
import { type ChildProcess, spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';

const children = new Set<ChildProcess>();
afterEach(() => {
  for (const child of children) child.kill('SIGKILL');
  children.clear();
});

function run(...args: string[]) {
  const child = spawn(process.execPath, ['bin/run-ts.js', 'test/e2e/fixtures/toxiproxy-cli.ts', 'toxiproxy', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (data) => (stdout += data));
  child.stderr!.on('data', (data) => (stderr += data));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const ready = new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', () => {
      const match = /API listening on (http:\/\/\S+)/.exec(stdout);
      if (match) resolve(match[1]);
    });
    child.on('exit', () => reject(new Error(`exited early: ${stderr}`)));
  });
  ready.catch(() => {});
  return { child, ready, exited, output: () => ({ stdout, stderr }) };
}

describe('faultline toxiproxy', () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`serves the API on loopback and exits 0 on ${signal}`, async () => {
      const server = run('--port', '0', '--seed', '5');
      const url = await server.ready;
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const version = await (await fetch(`${url}/version`)).json();
      expect(version.version).toMatch(/^2\.12\.0/);
      server.child.kill(signal);
      expect(await server.exited).toBe(0);
      await expect(fetch(`${url}/version`)).rejects.toThrow();
    });
  }

  it('refuses a non-loopback host without --allow-non-loopback: one line, exit 2', async () => {
    const server = run('--host', '0.0.0.0', '--port', '0');
    expect(await server.exited).toBe(2);
    const { stdout, stderr } = server.output();
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain('--allow-non-loopback');
  });
});
