// A user's TypeScript modules load through the real CLI (Node, not vite) from a project whose package.json says
// "type": "commonjs", as `npm init -y` writes it: a .ts read-back mapper importing its own .ts helper and a
// package of the project, and an .mts client module. A mapper that does not compile stops the run before it
// starts, in one line naming it, and the console never blames the target for having no way to see its effects.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO, runCli } from '../helpers/cli.ts';

const FILESYSTEM = join(REPO, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
const project = mkdtempSync(join(tmpdir(), 'faultline-cjs-project-'));
afterAll(() => rmSync(project, { recursive: true, force: true }));
writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'p', version: '1.0.0', type: 'commonjs' }));
symlinkSync(join(REPO, 'node_modules'), join(project, 'node_modules'));
mkdirSync(join(project, 'lib'));
writeFileSync(join(project, 'lib/prefix.ts'), "export const PREFIX: string = '[FILE] ';\n");
writeFileSync(
  join(project, 'files.ts'),
  `import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { PREFIX } from './lib/prefix.ts';
export default function files(result: CallToolResult): string[] {
  const text = result.content.map((b) => (b.type === 'text' ? b.text : '')).join('\\n');
  return text.split('\\n').flatMap((l) => (l.startsWith(PREFIX) ? [l.slice(PREFIX.length)] : []));
}
`,
);
writeFileSync(join(project, 'broken.ts'), 'export default function (: string[] {\n');
// The smallest client module: one SDK Client, one try per op.
writeFileSync(
  join(project, 'client.mts'),
  `import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { PREFIX } from './lib/prefix';
export default function createClient({ newTransport }: { newTransport(): Transport }) {
  if (PREFIX !== '[FILE] ') throw new Error('the helper was not bundled in');
  const client = new Client({ name: 'once', version: '1.0.0' });
  const connected = client.connect(newTransport());
  return {
    async callTool(params: { name: string; arguments: Record<string, unknown> }) {
      await connected;
      return client.callTool(params);
    },
    close: () => client.close(),
  };
}
`,
);

const profile = (module: string) => `name: files-cjs
duration: 1s
target: { kind: stdio, command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(FILESYSTEM)}, "\${tmpdir}"] }
workload:
  concurrency: 1
  mix:
    - tool: write_file
      args: { path: { unique: "f-" }, content: hello }
effects:
  keys: { write_file: path }
  readBack:
    - { tool: list_directory, args: { path: "\${tmpdir}" }, module: ./${module} }
expect:
  - ops_fail == 0
  - lost_effects == 0
`;
writeFileSync(join(project, 'good.yaml'), profile('files.ts'));
writeFileSync(join(project, 'broken.yaml'), profile('broken.ts'));

describe('TypeScript modules in a "type": "commonjs" project, through the CLI', () => {
  it('a .ts read-back module and an .mts client module load; the effects are read back and counted', async () => {
    const r = await runCli(['run', 'good.yaml', '--client-module', 'client.mts', '--out', 'out'], { cwd: project });
    expect(r.code, r.stderr + r.stdout).toBe(0);
    const report = JSON.parse(readFileSync(join(project, 'out/report.json'), 'utf8'));
    const m = report.profiles[0].metrics;
    expect(m.effectsObservable).toBe(true);
    expect(m.opsOk).toBeGreaterThan(0);
    expect(m.reconciliation.effects).toBe(m.opsOk);
    expect(m.lostEffects).toBe(0);
    expect(report.profiles[0].notes.join('\n')).toMatch(/client: your module .*client\.mts/);
    // The compiled files were only there for the import.
    expect(readdirSync(project).filter((f) => f.endsWith('.mjs'))).toEqual([]);
  }, 90_000);

  it('a read-back module that does not compile: one line naming it, exit 2, no blame on the target', async () => {
    const r = await runCli(['run', 'broken.yaml', '--out', 'out-broken'], { cwd: project });
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toMatch(
      /^faultline: effects\.readBack\[0\]\.module: .*broken\.ts: cannot load it \(broken\.ts:1:\d+: .+\)$/m,
    );
    expect(
      r.stderr
        .trim()
        .split('\n')
        .filter((l) => l.includes('broken.ts')),
    ).toHaveLength(1);
    expect(r.stdout + r.stderr).not.toMatch(/no way to see its effects/);
  }, 90_000);
});
