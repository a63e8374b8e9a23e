// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the placeholders are literal ${…} text
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { targetFromFlags } from '../../../src/cli/target-flags.ts';
import { UserError } from '../../../src/cli/user-error.ts';
import { closestName, didYouMean } from '../../../src/core/did-you-mean.ts';
import { ProfileError } from '../../../src/core/profile-error.ts';
import { splitCommandLine } from '../../../src/profile/command-line.ts';
import { parseProfile } from '../../../src/profile/load.ts';
import { loadMcpServer, mcpServerTarget } from '../../../src/profile/mcp-config.ts';
import { expandPlaceholders } from '../../../src/targets/placeholders.ts';

const profileWith = (target: string, faults = '') => `
name: foreign
description: a server we did not write
duration: 2s
target: ${target}
workload:
  rate: 5
  mix:
    - tool: read_graph
${faults ? `faults:\n${faults}` : ''}
`;

function messageOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected an error');
}

describe('foreign targets in a profile', () => {
  it('accepts kind stdio and kind http with defaults, and does not check their tools against the reference server', () => {
    const stdio = parseProfile('p.yaml', profileWith('{ kind: stdio, command: node, args: [server.js] }')).profile;
    expect(stdio.target).toEqual({ kind: 'stdio', command: 'node', args: ['server.js'], env: {} });
    const http = parseProfile('p.yaml', profileWith('{ kind: http, url: "http://127.0.0.1:3001/mcp" }')).profile;
    expect(http.target).toEqual({ kind: 'http', url: 'http://127.0.0.1:3001/mcp', headers: {} });
  });

  it('gives a foreign stdio target crash, restart and stdio-edge faults, and refuses network and control faults', () => {
    const stdio = '{ kind: stdio, command: node }';
    const crash = '  - { seam: server, kind: crash, start: 500ms, stop: 600ms }';
    expect(parseProfile('p.yaml', profileWith(stdio, crash)).profile.faults).toHaveLength(1);
    expect(
      messageOf(() => parseProfile('p.yaml', profileWith(stdio, '  - { seam: network, kind: down, start: 1s }'))),
    ).toBe(
      'p.yaml:11:28: faults[0].kind: fault kind down needs a target reached over TCP (through a Toxiproxy proxy); target kind stdio cannot take it',
    );
    // The interposer on the pipe spoils real bytes: no help from the server needed.
    const edge = '  - { seam: edge, kind: stdio-malformed-line, start: 1s }';
    expect(parseProfile('p.yaml', profileWith(stdio, edge)).profile.faults).toHaveLength(1);
    expect(
      messageOf(() =>
        parseProfile(
          'p.yaml',
          profileWith(stdio, '  - { seam: dependency, kind: status, dependency: payments, status: 503, start: 1s }'),
        ),
      ),
    ).toMatch(/needs a target with a control channel .*target kind stdio cannot take it/);
  });

  it('refuses listen on a target reached over a pipe (the stream is a connection of its own), and takes it over HTTP', () => {
    const listening = (target: string) => `${profileWith(target)}listen:\n  resources: [faultline://payments]\n`;
    expect(
      messageOf(() =>
        parseProfile(
          'p.yaml',
          listening('{ kind: reference-stdio }').replace('read_graph', 'search_documents\n      args: { query: q }'),
        ),
      ),
    ).toMatch(
      /^p\.yaml:\d+:\d+: listen: subscriptions\/listen needs a target reached over HTTP; target kind reference-stdio cannot take it$/,
    );
    expect(
      parseProfile('p.yaml', listening('{ kind: http, url: "http://127.0.0.1:3001/mcp" }')).profile.listen,
    ).toEqual({
      resources: ['faultline://payments'],
    });
  });

  it('gives a foreign http target network and HTTP-edge faults, and refuses crash and dependency faults', () => {
    const http = '{ kind: http, url: "http://127.0.0.1:3001/mcp" }';
    const ok = [
      '  - { seam: network, kind: down, start: 1s }',
      '  - { seam: edge, kind: status, status: 503, start: 1s }',
    ];
    for (const fault of ok) expect(parseProfile('p.yaml', profileWith(http, fault)).profile.faults).toHaveLength(1);
    expect(
      messageOf(() => parseProfile('p.yaml', profileWith(http, '  - { seam: server, kind: crash, start: 1s }'))),
    ).toMatch(/fault kind crash needs a target the harness can restart; target kind http cannot take it/);
    expect(
      messageOf(() =>
        parseProfile('p.yaml', profileWith(http, '  - { seam: server, kind: evict-sessions, start: 1s }')),
      ),
    ).toMatch(/target kind http cannot take it/);
  });

  it('replaces the written target with the one from the command line, checked the same way', () => {
    const loaded = parseProfile('p.yaml', profileWith('{ kind: reference }'), {
      target: { kind: 'stdio', command: 'node', args: ['s.js'] },
    });
    expect(loaded.profile.target.kind).toBe('stdio');
    // Without the override the reference server's tool list applies: read_graph is not one of its tools.
    expect(messageOf(() => parseProfile('p.yaml', profileWith('{ kind: reference }')))).toMatch(
      /unknown tool "read_graph"/,
    );
  });
});

describe('--target-command', () => {
  it('splits like a shell without running one: quotes, escapes, no variables', () => {
    expect(splitCommandLine(`node  server.js --root '/tmp/my dir' "a \\"b\\"" c\\ d $HOME`)).toEqual([
      'node',
      'server.js',
      '--root',
      '/tmp/my dir',
      'a "b"',
      'c d',
      '$HOME',
    ]);
    expect(splitCommandLine(`x ''`)).toEqual(['x', '']);
    expect(() => splitCommandLine(`node 'open`)).toThrow('unclosed single quote');
  });
});

describe('target flags', () => {
  it('make a stdio or http target, and refuse two ways at once or a stray --server', () => {
    expect(targetFromFlags({ targetCommand: 'npx -y my-server --flag' })).toEqual({
      kind: 'stdio',
      command: 'npx',
      args: ['-y', 'my-server', '--flag'],
    });
    expect(targetFromFlags({ targetUrl: 'http://127.0.0.1:9/mcp' })).toEqual({
      kind: 'http',
      url: 'http://127.0.0.1:9/mcp',
    });
    expect(targetFromFlags({})).toBeUndefined();
    expect(() => targetFromFlags({ targetUrl: 'http://x/mcp', targetCommand: 'node s.js' })).toThrow(
      new UserError('--target-command and --target-url: expected one way to name the target, not 2'),
    );
    expect(() => targetFromFlags({ server: 'memory' })).toThrow(/pass --mcp-config FILE too/);
    expect(() => targetFromFlags({ targetCommand: '  ' })).toThrow(/expected a command/);
    expect(() => targetFromFlags({ mcpConfig: 'x.json' })).toThrow(/pass --server NAME too/);
  });
});

describe('mcpServers JSON', () => {
  const config = JSON.stringify({
    mcpServers: {
      memory: {
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-memory'],
        env: { MEMORY_FILE_PATH: '/tmp/m' },
      },
      everything: { type: 'streamable-http', url: 'http://127.0.0.1:3001/mcp', headers: { Authorization: 'Bearer t' } },
      plain: { url: 'http://127.0.0.1:3002/mcp' },
      old: { type: 'sse', url: 'http://127.0.0.1:3003/sse' },
      both: { command: 'node', url: 'http://127.0.0.1:1/mcp' },
      badEnv: { command: 'node', env: { A: 1 } },
    },
  });

  it('reads the stdio shape and the url shape', () => {
    expect(mcpServerTarget('c.json', config, 'memory')).toEqual({
      kind: 'stdio',
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-memory'],
      env: { MEMORY_FILE_PATH: '/tmp/m' },
    });
    expect(mcpServerTarget('c.json', config, 'everything')).toEqual({
      kind: 'http',
      url: 'http://127.0.0.1:3001/mcp',
      headers: { Authorization: 'Bearer t' },
    });
    expect(mcpServerTarget('c.json', config, 'plain')).toMatchObject({ kind: 'http' });
    // VS Code's mcp.json calls the same object `servers`.
    expect(mcpServerTarget('c.json', JSON.stringify({ servers: { a: { command: 'node' } } }), 'a')).toMatchObject({
      kind: 'stdio',
      command: 'node',
      args: [],
    });
  });

  it('says in one line what is wrong, with a did-you-mean for a server name', () => {
    expect(messageOf(() => mcpServerTarget('c.json', config, 'memroy'))).toBe(
      'c.json: mcpServers.memroy: no such server (did you mean "memory"?); the file has: "memory", "everything", "plain", "old", "both", "badEnv"',
    );
    expect(messageOf(() => mcpServerTarget('c.json', config, 'old'))).toMatch(
      /mcpServers.old.type: the SSE transport is not supported/,
    );
    expect(messageOf(() => mcpServerTarget('c.json', config, 'both'))).toBe(
      'c.json: mcpServers.both: expected command or url, not both',
    );
    expect(messageOf(() => mcpServerTarget('c.json', config, 'badEnv'))).toBe(
      'c.json: mcpServers.badEnv.env.A: expected a string',
    );
    expect(messageOf(() => mcpServerTarget('c.json', '{"x":1}', 'a'))).toBe(
      'c.json: (document): expected an object with mcpServers',
    );
    expect(messageOf(() => mcpServerTarget('c.json', '{', 'a'))).toMatch(/^c\.json: \(document\): not JSON/);
    expect(() => loadMcpServer(join(tmpdir(), 'faultline-no-such-file.json'), 'a')).toThrow(ProfileError);
    expect(messageOf(() => loadMcpServer('/nonexistent/mcp.json', 'a'))).toBe(
      '/nonexistent/mcp.json: (file): no such file',
    );
  });

  it('is what --mcp-config FILE --server NAME reads', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'faultline-mcp-')), 'mcp.json');
    writeFileSync(file, config);
    expect(targetFromFlags({ mcpConfig: file, server: 'plain' })).toEqual({
      kind: 'http',
      url: 'http://127.0.0.1:3002/mcp',
      headers: {},
    });
  });
});

describe('did-you-mean', () => {
  it('names the closest candidate only when it is close', () => {
    expect(closestName('creat_entities', ['create_entities', 'read_graph'])).toBe('create_entities');
    expect(closestName('delete_everything', ['create_entities', 'read_graph'])).toBeUndefined();
    expect(didYouMean('Read_Graph', ['read_graph'])).toBe(' (did you mean "read_graph"?)');
    expect(didYouMean('zzz', [])).toBe('');
  });
});

describe('placeholders', () => {
  const values = { tmpdir: '/tmp/run-1', env: { TOKEN: 'secret' } };
  it('expand ${tmpdir} and ${env:NAME}, and refuse unknown ones and unset variables in one line', () => {
    expect(expandPlaceholders('${tmpdir}/memory.jsonl', values, 'target.env.X')).toBe('/tmp/run-1/memory.jsonl');
    expect(expandPlaceholders('Bearer ${env:TOKEN}', values, 'target.headers.Authorization')).toBe('Bearer secret');
    expect(messageOf(() => expandPlaceholders('${env:NOPE}', values, 'target.args[0]'))).toBe(
      'target.args[0]: ${env:NOPE}: the environment variable is not set',
    );
    expect(messageOf(() => expandPlaceholders('${home}', values, 'target.cwd'))).toBe(
      'target.cwd: unknown placeholder ${home}; expected ${tmpdir} or ${env:NAME}',
    );
  });
});
