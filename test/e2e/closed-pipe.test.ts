// `faultline run --help | head -3`: a reader that closes the pipe before the CLI writes ends it quietly, with the
// command's own exit code, and no stack trace on stderr (before, an unhandled EPIPE 'error' event crashed it).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli.ts';

const BIN = fileURLToPath(new URL('../../bin/faultline.js', import.meta.url));

function withStdoutClosed(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
    // Closed before the CLI has loaded, so its first write meets a pipe with no reader.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('a closed stdout pipe', () => {
  it('--help into a reader that left: exit 0, nothing on stderr', async () => {
    const { code, stderr } = await withStdoutClosed(['run', '--help']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });

  it('a command that fails keeps its exit code (bad input: 2)', async () => {
    const { code, stderr } = await withStdoutClosed(['validate', '/nonexistent/profile.yaml']);
    expect(stderr).toMatch(/^faultline: .*nonexistent/);
    expect(stderr).not.toMatch(/\n\s+at /);
    expect(code).toBe(2);
  });
});
