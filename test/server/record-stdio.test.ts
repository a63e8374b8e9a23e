// `faultline record` spawns a stdio server as a run would: in its expanded cwd, with its expanded environment.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { recordedServer } from '../../src/cli/record-targets/index.ts';

const placeholders = { tmpdir: '/tmp/rec', env: { REC_TOKEN: 't0k' } };
/** `${name}` as a target spells it. */
const ref = (name: string) => `\${${name}}`;
const dir = mkdtempSync(join(tmpdir(), 'faultline-record-cwd-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('recordedServer, stdio', () => {
  it('a stdio server is spawned in its expanded cwd with its expanded environment', async () => {
    // Answers its first message with where it runs and what REC_SEEN holds.
    const script = `process.stdin.once('data', () => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { cwd: process.cwd(), seen: process.env.REC_SEEN } }) + '\\n'))`;
    const target = {
      kind: 'stdio' as const,
      command: process.execPath,
      args: ['-e', script],
      cwd: ref('tmpdir'),
      env: { REC_SEEN: `token ${ref('env:REC_TOKEN')}` },
    };
    const transport = recordedServer(target, {
      placeholders: { ...placeholders, tmpdir: dir },
      allowNonLoopback: false,
    }).open();
    const answer = new Promise<unknown>((resolve) => {
      transport.onmessage = resolve;
    });
    await transport.start();
    await transport.send({ jsonrpc: '2.0', id: 1, method: 'ping' });
    expect(await answer).toMatchObject({ result: { cwd: realpathSync(dir), seen: 'token t0k' } });
    await transport.close();
  });
});
