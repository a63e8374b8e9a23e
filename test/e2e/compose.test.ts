// docker-compose.yml and the README's "Against real Toxiproxy" section agree with the code: the image the
// container backend pins, the ports and hosts the documented command and the url-target example use. No Docker
// engine here, so the services' commands are exercised on the host instead: the reference server's exact compose
// command, and the documented `faultline run --toxiproxy URL` against a Toxiproxy-compatible API at that URL.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { AdminClient } from '../../src/control/admin-http.ts';
import { EXIT_CODE_OF, type RunReport } from '../../src/measure/run-report.ts';
import { TOXIPROXY_IMAGE } from '../../src/network/container.ts';
import { parseProfile } from '../../src/profile/load.ts';
import { startEmbeddedToxiproxy } from '../../src/toxiproxy/server.ts';
import { REPO, runCli } from '../helpers/cli.ts';
import { expectPassed } from '../helpers/run.ts';

interface Service {
  image: string;
  network_mode?: string;
  command: string[];
  working_dir?: string;
  volumes?: string[];
  ports?: string[];
}

const composeText = readFileSync(join(REPO, 'docker-compose.yml'), 'utf8');
const compose = parse(composeText) as { services: Record<string, Service> };
/** The top-level keys Compose v1 (1.29, Debian's docker-compose) accepts; v2 accepts these too. */
const V1_TOP_LEVEL = ['version', 'services', 'networks', 'volumes', 'secrets', 'configs'];
const composeV1 = spawnSync('docker-compose', ['version', '--short'], { encoding: 'utf8' });
const hasComposeV1 = composeV1.status === 0 && composeV1.stdout.startsWith('1.');

/** `docker-compose config`: validates a compose file without an engine. */
function composeConfig(file: string) {
  return spawnSync('docker-compose', ['-f', file, 'config', '-q'], { cwd: REPO, encoding: 'utf8' });
}
const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
const section = /^## Against real Toxiproxy\n([\s\S]*?)(?=^## )/m.exec(readme)?.[1] ?? '';
const shBlock = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
const yamlBlock = /```yaml\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
const DEFAULT_TOKEN = /\$\{FAULTLINE_ADMIN_TOKEN:-([^}]+)\}/;

/** `-port=8474` style flag of the Toxiproxy command, or `--port 3001` style of faultline's. */
function flag(command: string[], name: string): string | undefined {
  const eq = command.find((a) => a.startsWith(`${name}=`));
  if (eq) return eq.slice(name.length + 1);
  const i = command.indexOf(name);
  return i >= 0 ? command[i + 1] : undefined;
}

let child: ChildProcess | undefined;
afterEach(async () => {
  if (child && child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((r) => child!.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
  child = undefined;
});

describe('docker-compose.yml', () => {
  it('has only top-level keys Compose v1 accepts (v1 refuses name:)', () => {
    const extra = Object.keys(compose).filter((k) => !V1_TOP_LEVEL.includes(k) && !k.startsWith('x-'));
    expect(extra).toEqual([]);
  });

  // Debian's docker-compose 1.29 validates without an engine; .ci/run installs it, elsewhere this is skipped.
  it.skipIf(!hasComposeV1)('docker-compose (v1) config accepts it, and refuses it with a top-level name:', () => {
    const result = composeConfig(join(REPO, 'docker-compose.yml'));
    expect(result.status, result.stderr).toBe(0);
    // Negative control: the same file with the key v1 refuses, so this check can fail.
    const dir = mkdtempSync(join(tmpdir(), 'faultline-compose-v1-'));
    try {
      writeFileSync(join(dir, 'docker-compose.yml'), `name: faultline\n${composeText}`);
      const refused = composeConfig(join(dir, 'docker-compose.yml'));
      expect(refused.status).not.toBe(0);
      expect(refused.stderr).toContain('name');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('runs the Toxiproxy image the container backend pins, API on loopback 8474, host network', () => {
    const toxiproxy = compose.services.toxiproxy;
    expect(toxiproxy.image).toBe(TOXIPROXY_IMAGE);
    expect(toxiproxy.network_mode).toBe('host');
    expect(toxiproxy.ports).toBeUndefined(); // ignored with host networking; the command decides
    expect(flag(toxiproxy.command, '-host')).toBe('127.0.0.1');
    expect(flag(toxiproxy.command, '-port')).toBe('8474');
  });

  it('runs the reference server from the mounted checkout on the ports the README example uses', async () => {
    const server = compose.services['reference-server'];
    expect(server.image).toMatch(/^node:20(\b|$)/);
    expect(server.network_mode).toBe('host');
    expect(server.volumes?.some((v) => v.split(':')[0] === './' && v.split(':')[1] === server.working_dir)).toBe(true);
    const token = DEFAULT_TOKEN.exec(server.command.join(' '))?.[1];
    expect(token).toBeDefined();
    expect(yamlBlock).toContain(`default token is ${token}`);

    // The README's target block is a valid url target pointing at this service.
    const profile = parseProfile(
      'readme.yaml',
      `name: readme-url\ndescription: x\n${yamlBlock}workload: { rate: 1, mix: [{ tool: search_documents }] }\n`,
    ).profile;
    expect(profile.target.kind).toBe('url');
    const target = profile.target as { url: string; admin: string };

    // The service's exact command (compose's ${VAR:-default} resolved), run here: it must serve those URLs.
    const [command, ...args] = server.command.map((a) => a.replace(DEFAULT_TOKEN, token!));
    expect(command).toBe('node');
    child = spawn(process.execPath, args, { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
    const urls = await new Promise<{ mcp: string; admin: string }>((resolve, reject) => {
      let mcp = '';
      let admin = '';
      const timer = setTimeout(() => reject(new Error('the compose server command printed no URLs')), 20_000);
      child!.once('exit', (code) => reject(new Error(`the compose server command exited (${code})`)));
      createInterface({ input: child!.stdout! }).on('line', (line) => {
        mcp = /MCP endpoint (\S+)/.exec(line)?.[1] ?? mcp;
        admin = /control API (\S+)/.exec(line)?.[1] ?? admin;
        if (mcp && admin) {
          clearTimeout(timer);
          resolve({ mcp, admin });
        }
      });
    });
    expect(urls).toEqual({ mcp: target.url, admin: target.admin });
    expect(await new AdminClient(target.admin, token!).call('ledger')).toEqual([]);
  }, 40_000);
});

describe('README: Against real Toxiproxy', () => {
  it('documents exactly two commands: compose up, then faultline run against the compose Toxiproxy', () => {
    const commands = shBlock
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    expect(commands).toHaveLength(2);
    expect(commands[0]).toBe('docker compose up -d');
    const url = /^npx faultline run --toxiproxy (\S+)$/.exec(commands[1])?.[1];
    expect(url).toBeDefined();
    const port = flag(compose.services.toxiproxy.command, '-port');
    expect(new URL(url!).host).toBe(`${flag(compose.services.toxiproxy.command, '-host')}:${port}`);
  });

  it('the documented run command works against a Toxiproxy API at that URL', async () => {
    const url = /--toxiproxy (\S+)/.exec(shBlock)![1];
    const { hostname, port } = new URL(url);
    // Stand-in for the container: the embedded Toxiproxy-compatible API, on the documented address.
    const toxiproxy = await startEmbeddedToxiproxy({ host: hostname, port: Number(port) });
    const out = mkdtempSync(join(tmpdir(), 'faultline-compose-'));
    try {
      const result = await runCli(['run', 'chaos-profiles/network-latency.yaml', '--toxiproxy', url, '--out', out], {
        timeoutMs: 60_000,
      });
      expect(result.stderr).toContain(`network backend external (Toxiproxy API ${url})`);
      const report: RunReport = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
      expectPassed(report.profiles[0]);
      expect(result.code, result.stderr).toBe(EXIT_CODE_OF[report.verdict]);
    } finally {
      await toxiproxy.close();
      rmSync(out, { recursive: true, force: true });
    }
  }, 90_000);
});
