// The idempotency contract examples (examples/byo-servers/*-idempotency.yaml) give the verdict each one states:
// server-memory passes with its key checks not applicable; server-filesystem, with the path taken as the key,
// fails only write_file same-key-other-args (a second write with other content overwrites, nothing refuses it).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function example(name: string) {
  const out = mkdtempSync(join(tmpdir(), `faultline-${name}-`));
  dirs.push(out);
  const result = await runCli(['idempotency', `examples/byo-servers/${name}.yaml`, '--out', out], {
    timeoutMs: 150_000,
  });
  const { rows } = JSON.parse(readFileSync(join(out, 'idempotency.json'), 'utf8')) as {
    rows: { tool: string; check: string; verdict: string }[];
  };
  const having = (verdict: string) => rows.filter((r) => r.verdict === verdict).map((r) => `${r.tool} ${r.check}`);
  return { ...result, having };
}

describe('idempotency contract examples', () => {
  it('memory-idempotency: exit 0; create_entities has no key (n/a), read_graph is honest about readOnlyHint', async () => {
    const r = await example('memory-idempotency');
    expect(r.code, r.stderr).toBe(0);
    expect(r.having('fail')).toEqual([]);
    expect(r.having('pass')).toEqual(['read_graph hints-honest']);
    expect(r.having('n/a')).toContain('create_entities retry-after-dropped-answer');
  }, 180_000);

  it('filesystem-idempotency: exit 1, failing only write_file same-key-other-args', async () => {
    const r = await example('filesystem-idempotency');
    expect(r.code, r.stderr).toBe(1);
    expect(r.having('fail')).toEqual(['write_file same-key-other-args']);
    expect(r.having('pass')).toEqual([
      'write_file same-key-same-args',
      'write_file concurrent-same-key',
      'write_file retry-after-dropped-answer',
      'write_file hints-honest',
      'list_allowed_directories hints-honest',
    ]);
  }, 180_000);
});
