// The bare MCP SDK 1.32 pair the benches measure Faultline against, in plain JavaScript so that node runs it with
// no TypeScript loader in its memory or its CPU (the harness side runs compiled, so the bare side must too).
//   node bench/bare-pair.mjs server
//     An echo server: McpServer over Streamable HTTP on 127.0.0.1 (stateful, one McpServer per session, no event
//     store); prints `listening URL` once it listens; exits on SIGTERM.
//   node bench/bare-pair.mjs client OPS CONCURRENCY
//     Starts that server as its child, opens one SDK Client session on it and calls `echo` OPS times with
//     CONCURRENCY calls in flight; prints one JSON line {ops, errors, seconds}; stops the server (SIGTERM) and exits.
// Any node flag given to the client (--cpu-prof, say) goes to the server child too.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const SELF = fileURLToPath(import.meta.url);

async function server() {
  const { McpServer } = await import('@modelcontextprotocol/sdk/server/mcp.js');
  const { StreamableHTTPServerTransport } = await import('@modelcontextprotocol/sdk/server/streamableHttp.js');
  const { isInitializeRequest } = await import('@modelcontextprotocol/sdk/types.js');
  const { z } = await import('zod');
  const transports = new Map();
  const newServer = () => {
    const mcp = new McpServer({ name: 'bare-echo', version: '1.0.0' });
    mcp.registerTool('echo', { description: 'Echoes text.', inputSchema: { text: z.string() } }, async (args) => ({
      content: [{ type: 'text', text: args.text }],
    }));
    return mcp;
  };
  const http = createServer(async (req, res) => {
    const id = req.headers['mcp-session-id'];
    const transport = typeof id === 'string' ? transports.get(id) : undefined;
    if (transport) return transport.handleRequest(req, res);
    if (req.method !== 'POST') return void res.writeHead(404).end();
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    if (!isInitializeRequest(body)) return void res.writeHead(404).end();
    const created = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sid) => void transports.set(sid, created),
    });
    created.onclose = () => created.sessionId && transports.delete(created.sessionId);
    await newServer().connect(created);
    await created.handleRequest(req, res, body);
  });
  process.once('SIGTERM', () => process.exit(0));
  await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
  process.stdout.write(`listening http://127.0.0.1:${http.address().port}/mcp\n`);
}

/**
 * Starts the echo server as a child of this process (with this process's node flags, so --cpu-prof profiles it too);
 * resolves with its URL and a stop that sends SIGTERM and waits for its exit. bench:overhead and bench:hot-path use it.
 */
export async function startEchoServer() {
  const child = spawn(process.execPath, [...process.execArgv, SELF, 'server'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const match = /listening (\S+)/.exec(out);
      if (match) resolve(match[1]);
    });
    child.on('exit', (code) => reject(new Error(`echo server exited with ${code}`)));
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  return { url, stop };
}

async function client(ops, concurrency) {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
  const echo = await startEchoServer();
  try {
    const sdk = new Client({ name: 'bare-bench', version: '1.0.0' });
    await sdk.connect(new StreamableHTTPClientTransport(new URL(echo.url)));
    let started = 0;
    let errors = 0;
    const start = performance.now();
    const worker = async () => {
      while (started < ops) {
        started++;
        try {
          if ((await sdk.callTool({ name: 'echo', arguments: { text: 'hello' } })).isError) errors++;
        } catch {
          errors++;
        }
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    const seconds = (performance.now() - start) / 1000;
    await sdk.close();
    process.stdout.write(`${JSON.stringify({ ops: started, errors, seconds })}\n`);
  } finally {
    await echo.stop();
  }
}

if (process.argv[1] === SELF) {
  const [mode, ops, concurrency] = process.argv.slice(2);
  if (mode === 'server') await server();
  else if (mode === 'client') await client(Number(ops), Number(concurrency));
  else {
    process.stderr.write('usage: node bench/bare-pair.mjs server | client OPS CONCURRENCY\n');
    process.exitCode = 2;
  }
}
