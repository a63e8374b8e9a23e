// A server from the `mcpServers` JSON that MCP clients use (Claude Desktop, Cursor, VS Code's `servers`), as a
// profile target: the stdio shape {command, args, env, cwd} becomes kind stdio, the URL shape {url, type: "http" |
// "streamable-http", headers} kind http. Anything else is one line naming the file and the path inside it.
import { didYouMean } from '../core/did-you-mean.ts';
import { excerpt, ProfileError } from '../core/profile-error.ts';
import type { TargetSpec } from './schema.ts';
import { readUserFile } from './user-file.ts';

const HTTP_TYPES = ['http', 'streamable-http', 'streamableHttp'];

export function loadMcpServer(file: string, name: string): TargetSpec {
  return mcpServerTarget(file, readUserFile(file), name);
}

export function mcpServerTarget(file: string, text: string, name: string): TargetSpec {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    throw new ProfileError(file, '(document)', `not JSON (${(error as Error).message})`);
  }
  const key = isRecord(doc) ? (['mcpServers', 'servers'] as const).find((k) => isRecord(doc[k])) : undefined;
  if (!key || !isRecord(doc)) throw new ProfileError(file, '(document)', 'expected an object with mcpServers');
  const servers = doc[key] as Record<string, unknown>;
  const path = `${key}.${name}`;
  if (!Object.hasOwn(servers, name)) {
    const names = Object.keys(servers);
    throw new ProfileError(
      file,
      path,
      `no such server${didYouMean(name, names)}; the file has: ${names.map((n) => excerpt(n)).join(', ') || 'none'}`,
    );
  }
  const server = servers[name];
  if (!isRecord(server)) throw new ProfileError(file, path, 'expected an object with command or url');
  const fail = (at: string, problem: string): never => {
    throw new ProfileError(file, `${path}${at ? `.${at}` : ''}`, problem);
  };
  const type = server.type;
  if (type !== undefined && typeof type !== 'string') fail('type', 'expected a string');
  if (server.command !== undefined && server.url !== undefined) fail('', 'expected command or url, not both');

  if (server.url !== undefined || (type && HTTP_TYPES.includes(type as string))) {
    if (type === 'sse') fail('type', 'the SSE transport is not supported; expected a Streamable HTTP server');
    if (type !== undefined && !HTTP_TYPES.includes(type as string))
      fail('type', `expected one of ${HTTP_TYPES.join(', ')} for a url server, got ${excerpt(type)}`);
    if (typeof server.url !== 'string') fail('url', 'expected the MCP endpoint URL as a string');
    return { kind: 'http', url: server.url as string, headers: stringRecord(server.headers, 'headers', fail) };
  }
  if (type !== undefined && type !== 'stdio')
    fail('type', `expected stdio, http or streamable-http, got ${excerpt(type)}`);
  if (typeof server.command !== 'string' || server.command.length === 0)
    fail('command', 'expected the command to start the server (or a url)');
  const args = server.args ?? [];
  if (!Array.isArray(args) || !args.every((a) => typeof a === 'string')) fail('args', 'expected a list of strings');
  if (server.cwd !== undefined && typeof server.cwd !== 'string') fail('cwd', 'expected a directory path');
  return {
    kind: 'stdio',
    command: server.command as string,
    args: args as string[],
    env: stringRecord(server.env, 'env', fail),
    ...(typeof server.cwd === 'string' && { cwd: server.cwd }),
  };
}

function stringRecord(
  value: unknown,
  at: string,
  fail: (at: string, problem: string) => never,
): Record<string, string> {
  if (value === undefined) return {};
  if (!isRecord(value)) return fail(at, 'expected an object of strings');
  for (const [k, v] of Object.entries(value)) if (typeof v !== 'string') fail(`${at}.${k}`, 'expected a string');
  return value as Record<string, string>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
