// What a tool declares about itself that a replay or a metric depends on: its MCP annotations and, as the client
// knows them, its replay traits. Shared by the client, the reference server's catalogue and the measures.

/** The hints that say what a call may do to the world. */
export interface ToolHints {
  readOnlyHint?: boolean;
  idempotentHint?: boolean;
  destructiveHint?: boolean;
}

/** What a tool declares about replays, as the client knows it (tools/list annotations, or the profile). */
export interface ReplayTraits {
  /** The tool's annotations (the reference server's own listing for its tools). */
  hints?: ToolHints;
  /** The profile's `idempotent` override, else the tool's idempotentHint. */
  idempotent?: boolean;
  /** The server honours the key in `idempotencyArg` (the reference server's own trait; another server's only when
   * the profile names `idempotencyKeyArg`). */
  keyHonoured?: boolean;
}
