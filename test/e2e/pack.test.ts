// What `npm pack` ships: the compiled package (its prepare script builds it), the shipped profiles and schema,
// the docs, every path package.json's bin and exports name, and no sources, tests or dependencies. The dry run
// lists the dist/ that `npm ci` built (--ignore-scripts): rebuilding it here would swap its chunks under every CLI
// process the other test files are running at the same moment.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';

const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
let files: string[] = [];

beforeAll(() => {
  const [packed] = JSON.parse(
    execFileSync('npm', ['pack', '--dry-run', '--ignore-scripts', '--json', '--loglevel=error'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  );
  files = packed.files.map((f: { path: string }) => f.path);
}, 240_000);

/** Every file path package.json points at: the bin and each export's conditions. */
function declaredPaths(): string[] {
  const conditions = (entry: unknown): string[] =>
    typeof entry === 'string' ? [entry] : Object.values(entry as Record<string, unknown>).flatMap(conditions);
  return [...Object.values(pkg.bin as Record<string, string>), ...conditions(pkg.exports)].map((p) =>
    p.replace(/^\.\//, ''),
  );
}

describe('npm pack', () => {
  it('ships every file the bin and the exports map name', () => {
    const declared = declaredPaths();
    expect(declared).toEqual(expect.arrayContaining(['bin/faultline.js', 'dist/src/index.js', 'dist/src/index.d.ts']));
    expect(declared).toEqual(expect.arrayContaining(['dist/src/vitest/index.js', 'dist/src/vitest/index.d.ts']));
    for (const path of declared) expect(files).toContain(path);
  });

  it('ships the bundled CLI and server entry points the compiled package runs', () => {
    for (const entry of ['main', 'child-main', 'stdio-main', 'cassette-main'])
      expect(files).toContain(`dist/bin/${entry}.js`);
    expect(files.some((f) => f.startsWith('dist/bin/chunks/'))).toBe(true);
    expect(files).toContain('dist/mocks/world.js');
  });

  it('ships every shipped profile, the JSON Schema, README, CHANGELOG and LICENSE', () => {
    const profiles = readdirSync('chaos-profiles').filter((f) => f.endsWith('.yaml'));
    expect(profiles.length).toBeGreaterThan(0);
    for (const p of profiles) expect(files).toContain(`chaos-profiles/${p}`);
    for (const f of ['schema/profile.schema.json', 'README.md', 'CHANGELOG.md', 'LICENSE', 'package.json']) {
      expect(files).toContain(f);
    }
  });

  it('ships no TypeScript sources, tests, dependencies or development files', () => {
    const unwanted = files.filter((f) =>
      /^(src|mocks|test|bench|scripts|examples|docs|node_modules|faultline-report)\/|^dist\.partial|\.ts$(?<!\.d\.ts)/.test(
        f,
      ),
    );
    expect(unwanted).toEqual([]);
    expect(files).not.toContain('bin/run-ts.js');
  });
});
