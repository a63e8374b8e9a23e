// A third-party stdio server, @modelcontextprotocol/server-memory (a knowledge graph kept in a JSON file), killed
// between two calls. The client's transport factory spawns a server per connect, so the resilient client's next
// call finds the connection dead, spawns a new server and succeeds; the graph written before the crash is there.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { chaosTest, expect } from 'faultline/vitest';
import { onTestFinished } from 'vitest';

// The package has a bin and no main: start the bin's script with this Node.
const manifest = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-memory/package.json');
const serverMemory = join(dirname(manifest), JSON.parse(readFileSync(manifest, 'utf8')).bin['mcp-server-memory']);

chaosTest(
  'a killed third-party stdio server is respawned by the next call',
  { timeout: 60_000 },
  async ({ faultline }) => {
    const folder = mkdtempSync(join(tmpdir(), 'faultline-memory-'));
    onTestFinished(() => rmSync(folder, { recursive: true, force: true }));
    const memoryFile = join(folder, 'memory.jsonl');
    const spawned: StdioClientTransport[] = [];
    const client = faultline.client(
      {
        name: 'server-memory',
        transport: () => {
          const transport = new StdioClientTransport({
            command: process.execPath,
            args: [serverMemory],
            env: { ...process.env, MEMORY_FILE_PATH: memoryFile } as Record<string, string>,
            stderr: 'ignore',
          });
          spawned.push(transport);
          return transport;
        },
      },
      { client: { attemptTimeoutMs: 10_000, deadlineMs: 30_000 } },
    );

    const entity = { name: 'faultline', entityType: 'tool', observations: ['breaks things on purpose'] };
    const created = await client.call('create_entities', { entities: [entity] });
    expect(created.outcome).toBe('ok');

    // The fault: the server process dies (SIGKILL, no goodbye), as a crash would.
    const first = spawned[0];
    expect(first.pid).toBeTypeOf('number');
    process.kill(first.pid!, 'SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 200));

    const read = await client.call('read_graph', {});
    expect(read.outcome).toBe('ok');
    expect(spawned.length).toBe(2);
    expect(read.visible).toContain('breaks things on purpose');
  },
);
