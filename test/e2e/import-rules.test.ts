// The import rules can fire: a fixture tree with one breach of each kind fails them. (That they hold on the real
// tree is `npm run lint`.)
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const DEPCRUISE = fileURLToPath(
  new URL('../../node_modules/dependency-cruiser/bin/dependency-cruise.mjs', import.meta.url),
);
const CONFIG = fileURLToPath(new URL('../../.dependency-cruiser.cjs', import.meta.url));
const FIXTURE = fileURLToPath(new URL('./fixtures/import-rules/', import.meta.url));

async function cruise(cwd: string): Promise<{ code: number; out: string }> {
  try {
    const { stdout } = await run(process.execPath, [DEPCRUISE, 'src', 'mocks', '--config', CONFIG], { cwd });
    return { code: 0, out: stdout };
  } catch (error) {
    const e = error as { code: number; stdout: string };
    return { code: e.code, out: e.stdout };
  }
}

describe('import rules', () => {
  it('fire on a stage importing a later stage, a circle (type-only too), a folder cycle, and the server reaching into its mocks', async () => {
    const { code, out } = await cruise(FIXTURE);
    expect(code).not.toBe(0);
    expect(out).toContain('error measure-is-pure: src/measure/judge.ts → src/run/history.ts');
    expect(out).toContain('error server-not-into-mocks: src/server/tool.ts → mocks/world.ts');
    expect(out).toMatch(/error no-circular: src\/core\/a\.ts →\s+src\/core\/b\.ts/);
    expect(out).toMatch(/error no-circular: src\/core\/c\.ts →\s+src\/core\/d\.ts/);
    // plan -> model and model -> plan through different files: no file circle, one folder cycle (seen from each end).
    expect(out).toMatch(/error folders-form-a-dag: src\/plan →\s+src\/model →\s+src\/plan/);
    expect(out).toMatch(/error folders-form-a-dag: src\/model →\s+src\/plan →\s+src\/model/);
    expect(out).toContain('x 6 dependency violations');
  });
});
