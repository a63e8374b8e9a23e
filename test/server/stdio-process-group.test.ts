// A stdio server started through a wrapper (as `npx server` does: npx spawns node, which runs the server) must die
// with the wrapper: the transport spawns each child as its own process group and kills the whole group.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sleep } from '../../src/core/sleep.ts';
import { StdioEdgeController } from '../../src/faults/edge/stdio/controller.ts';
import { ForeignStdioTarget } from '../../src/targets/foreign-stdio-target.ts';
import { alive } from '../helpers/processes.ts';

const dir = mkdtempSync(join(tmpdir(), 'faultline-pgroup-'));
// The "real server": never reads stdin (so end of stdin does not stop it), writes its pid, runs until killed.
const server = join(dir, 'server.mjs');
writeFileSync(
  server,
  `import { writeFileSync } from 'node:fs';
writeFileSync(process.argv[2], String(process.pid));
setInterval(() => {}, 1000);
`,
);
// The wrapper, like npx: starts the server on the same stdio and waits for it.
const wrapper = join(dir, 'wrapper.mjs');
writeFileSync(
  wrapper,
  `import { spawn } from 'node:child_process';
const child = spawn(process.execPath, [${JSON.stringify(server)}, process.argv[2]], { stdio: 'inherit' });
child.on('exit', (code) => process.exit(code ?? 1));
`,
);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function until(check: () => boolean, ms = 5000): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(25)) if (check()) return true;
  return check();
}

/** Starts the wrapper through the foreign stdio target; resolves with the target and the real server's pid. */
async function startWrapped(name: string) {
  const pidFile = join(dir, `${name}.pid`);
  const target = new ForeignStdioTarget(
    { command: process.execPath, args: [wrapper, pidFile], env: {} },
    new StdioEdgeController(),
  );
  const transport = target.createTransport();
  await transport.start();
  expect(await until(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8') !== '')).toBe(true);
  const serverPid = Number(readFileSync(pidFile, 'utf8'));
  return { target, transport, serverPid };
}

describe('a stdio server behind a wrapper', () => {
  it('dies with it when the target closes', async () => {
    const { target, transport, serverPid } = await startWrapped('close');
    expect(alive(serverPid)).toBe(true);
    await transport.close();
    await target.close();
    expect(await until(() => !alive(serverPid))).toBe(true);
  }, 20_000);

  it('dies with it on a crash fault (kill)', async () => {
    const { target, transport, serverPid } = await startWrapped('crash');
    expect(target.kill('SIGKILL')).toBe(true);
    expect(await until(() => !alive(serverPid))).toBe(true);
    await transport.close();
    await target.close();
  }, 20_000);

  it('control: killing the wrapper process alone leaves the real server running', async () => {
    const { target, transport, serverPid } = await startWrapped('control');
    const wrapperPid = (transport as unknown as { pid: number }).pid;
    process.kill(wrapperPid, 'SIGKILL');
    expect(await until(() => !alive(wrapperPid))).toBe(true);
    await sleep(300);
    expect(alive(serverPid)).toBe(true);
    process.kill(serverPid, 'SIGKILL');
    await transport.close();
    await target.close();
  }, 20_000);
});
