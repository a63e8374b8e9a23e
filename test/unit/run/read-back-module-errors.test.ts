// A user's TypeScript module (read-back mapper) that does not compile or throws while loading is one line naming
// the probe, the file and the error (the place in the file for a compile error).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { effectsSchema } from '../../../src/profile/effects-schema.ts';
import { ReadBackSource } from '../../../src/run/read-back.ts';

const project = mkdtempSync(join(tmpdir(), 'faultline-broken-modules-'));
afterAll(() => rmSync(project, { recursive: true, force: true }));
// Under vitest, vite loads TypeScript itself: what Node does with these files is test/e2e/user-modules.test.ts.
describe('a TypeScript module that cannot load', () => {
  it('a read-back module that does not compile is one line naming the probe, the file, the place and the error', async () => {
    const broken = join(project, 'broken.ts');
    writeFileSync(broken, 'export default function (: string[] {\n');
    const spec = effectsSchema.parse({ keys: { t: 'x' }, readBack: [{ tool: 'list', module: './broken.ts' }] });
    const source = new ReadBackSource(spec, join(project, 'p.yaml'), async () => ({ content: [] }));
    const error = await source.load().then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).toMatch(
      /^effects\.readBack\[0\]\.module: .*broken\.ts: cannot load it \(broken\.ts:1:\d+: .+\)$/,
    );
    expect(error?.message).not.toMatch(/\n/);
  });

  it('a module that throws while loading is named with its error', async () => {
    const throwing = join(project, 'throws.ts');
    writeFileSync(throwing, "throw new Error('no config file found');\nexport default () => [];\n");
    const spec = effectsSchema.parse({ keys: { t: 'x' }, readBack: [{ tool: 'list', module: './throws.ts' }] });
    const source = new ReadBackSource(spec, join(project, 'p.yaml'), async () => ({ content: [] }));
    await expect(source.load()).rejects.toThrow(/throws\.ts: cannot load it \(no config file found\)$/);
  });
});
