// The areas of MCP server runtime faults that the published taxonomy names in its abstract (Owotogbe et al., "A
// Taxonomy of Runtime Faults in Model Context Protocol Servers", arXiv 2606.05339: 11 top-level categories, 27
// subcategories, 73 leaf fault types). Only the abstract is reachable from here, so these are the areas it names,
// not its 27 subcategories. Every fault kind declares the areas it injects into (`covers`) and every detector metric
// the areas it detects (`detects`); `faultline kinds --coverage` prints the table from those declarations.
export const FAULT_AREAS = {
  protocol: 'protocol interactions (transport, framing, sessions, versions, routing headers)',
  tool: 'tool invocations (the tool or its dependency fails, stalls, or answers wrongly)',
  schema: 'schema enforcement (arguments and results against their declared schemas)',
  state: 'state management (state lost, leaked or doubled across calls, sessions, restarts)',
  provider: 'model-provider integration',
  security: 'security validation (credentials, secrets, tampered requests)',
  timeout: 'timeouts and explicit cancellations of in-progress operations',
  config: 'configuration accepted but not enforced at runtime (e.g. a hint the server does not honour)',
} as const;

export type FaultArea = keyof typeof FAULT_AREAS;

export const FAULT_AREA_SOURCE =
  'arXiv 2606.05339 (abstract): the areas it names; its 27 subcategories are not public here';
