// One server behaviour: a fault that happens inside the reference HTTP server itself, declared with its parameters
// (the profile's server-seam kind of the same name is derived from them) and the hooks that make it happen on the
// real SDK transport. The server calls each hook for the behaviours active now; a behaviour's `state` lives as
// long as the server process.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { InitializeResult, JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import type { FaultArea } from '../../core/fault-areas.ts';

export interface BehaviourSession {
  /** The Mcp-Session-Id (set once initialize answered). */
  id: string;
  transport: StreamableHTTPServerTransport;
  server: McpServer;
  /** POSTs this session has served (after initialize). */
  posts: number;
}

/** What a behaviour can do to the HTTP server it runs in (bound to the window whose hook runs: evicting a session and
 * counting an action are that window's hits). */
export interface BehaviourHost {
  /** Live sessions by id. */
  readonly sessions: ReadonlyMap<string, BehaviourSession>;
  /** The server forgets the session: its transport closes, its id now gets 404 (counts sessionsEvicted). */
  evict(id: string): void;
  /** Adds one to a counter of behaviourStats (declared in the behaviour's `counters`). */
  count(counter: string): void;
  /** Answers a request with a JSON-RPC error body. */
  reply(res: ServerResponse, status: number, code: number, message: string): void;
}

export interface ServerBehaviourKind<S extends z.ZodObject = z.ZodObject, State = unknown> {
  /** Also the name of the profile's server-seam fault kind. */
  kind: string;
  summary: string;
  /** The areas of MCP server faults it injects into (core/fault-areas.ts). */
  covers: readonly FaultArea[];
  /** Parameters, strict; units in `.describe()`. */
  params: S;
  /** The behaviourStats counters it adds to. */
  counters: readonly string[];
  /** Why it means nothing on the 2026-07-28 wire (its hooks act on SDK 1.32's sessions): the fault kind's. */
  removedOnModernWire?: string;
  /** Its state on one server process. */
  state?(): State;
  /** A window with this behaviour opened (also when a restarted process receives the behaviour). */
  opened?(p: z.output<S>, host: BehaviourHost): void;
  /** A request carrying a live session's id, before the transport sees it; true when answered here. */
  request?(
    p: z.output<S>,
    req: IncomingMessage,
    res: ServerResponse,
    session: BehaviourSession,
    host: BehaviourHost,
  ): boolean;
  /** A JSON-RPC message from the client on a session, before the server handles it. */
  received?(
    p: z.output<S>,
    message: JSONRPCMessage,
    session: BehaviourSession,
    host: BehaviourHost,
    state: State,
  ): void;
  /** A message the server is about to send on a session; called while inactive too, to finish what was started. */
  sending?(message: JSONRPCMessage, session: BehaviourSession, host: BehaviourHost, state: State): void;
  /** The answer to initialize, changed. */
  initialize?(p: z.output<S>, result: InitializeResult, host: BehaviourHost): InitializeResult;
}

/** Types a behaviour's hooks from its parameter schema. */
export function defineBehaviour<S extends z.ZodObject, State = undefined>(
  behaviour: ServerBehaviourKind<S, State>,
): ServerBehaviourKind<S, State> {
  return behaviour;
}
