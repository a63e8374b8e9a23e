// Import rules (npm run lint). The stages run core -> profile -> plan -> run -> measure -> report -> cli; the
// seams (faults, toxiproxy, network, targets, control, server, client, model, mocks) are rooms the stages use, and
// under-test/ is the target contract the faults and the targets share. A stage never imports a later one, the system
// under test never reaches into its mocks, and nothing is circular: no file circle and no folder cycle.
/** @type {import('dependency-cruiser').IConfiguration} */
const stage = (name) => `^src/${name}/`;

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'modules form no import circle, type imports included: a type shared both ways belongs in a file of its own',
      from: {},
      to: { circular: true },
    },
    {
      name: 'folders-form-a-dag',
      severity: 'error',
      comment:
        'the top folders (src/*, mocks) import each other in one direction only: no two import each other and no longer cycle closes (type imports included); a contract both sides need goes to core/ or a neutral room such as under-test/',
      scope: 'folder',
      from: { path: '^(src/[^/]+|mocks)$' },
      to: { circular: true },
    },
    {
      name: 'core-is-a-leaf',
      severity: 'error',
      comment: 'core holds shared contracts and utilities: it imports nothing else of ours',
      from: { path: stage('core') },
      to: { path: '^(src|mocks)/', pathNot: stage('core') },
    },
    {
      name: 'nothing-imports-cli',
      severity: 'error',
      comment: 'cli/ is commands only; no stage may depend on a command',
      from: { path: '^(src|mocks)/', pathNot: stage('cli') },
      to: { path: stage('cli') },
    },
    {
      name: 'profile-and-plan-before-run',
      severity: 'error',
      comment:
        'profile and plan come before the environment and the run; they may read the threshold grammar, which a profile is written against',
      from: { path: '^src/(profile|plan)/' },
      to: {
        path: '^src/(run|report|measure|targets|control|network|toxiproxy)/',
        pathNot: '^src/measure/(thresholds|metric-table)\\.ts$',
      },
    },
    {
      name: 'run-never-imports-report',
      severity: 'error',
      comment: 'run produces a History and the measure stage judges it; rendering comes after',
      from: { path: stage('run') },
      to: { path: stage('report') },
    },
    {
      name: 'measure-is-pure',
      severity: 'error',
      comment: 'metrics, thresholds and the verdict are functions of a History: no seam, no run, no renderer',
      from: { path: stage('measure') },
      to: { path: '^(src|mocks)/', pathNot: '^src/(measure|core)/' },
    },
    {
      name: 'report-renders-only',
      severity: 'error',
      comment: 'renderers are pure functions of the run report',
      from: { path: stage('report') },
      to: { path: '^(src|mocks)/', pathNot: '^src/(report|measure|core)/' },
    },
    {
      name: 'server-not-into-mocks',
      severity: 'error',
      comment:
        'the reference server shares a contract with its mocks (core/dependency-contract.ts); only the world bootstrap starts them and only the control side (server/control/: the child IPC messages and the handlers), which operates that world, names it',
      from: { path: stage('server'), pathNot: '^src/server/(deps/world\\.ts$|control/)' },
      to: { path: '^mocks/' },
    },
    {
      name: 'mocks-know-only-the-contract',
      severity: 'error',
      comment: 'the mocked dependencies know core and the dependency contract, nothing of the server',
      from: { path: '^mocks/' },
      to: { path: '^src/', pathNot: stage('core') },
    },
    {
      name: 'client-knows-only-the-wire',
      severity: 'error',
      comment:
        'the client under test knows the wire and its model, never the reference server or the harness (it may name the types of its settings and of a planned op)',
      from: { path: stage('client') },
      to: { path: '^(src|mocks)/', pathNot: '^src/(client|core|model)/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'sdk2-only-in-its-front-ends',
      severity: 'error',
      comment:
        'SDK 2.4 (the 2026-07-28 era) lives behind two seams: the server front end (server/modern/) and the client adapter (client/sdk2-client.ts); everything else sees one tool implementation and one McpClient',
      from: { path: '^(src|mocks)/', pathNot: '^src/(server/modern/|client/sdk2-client\\.ts$)' },
      to: { path: 'node_modules/@modelcontextprotocol/(client|server|node|core)/' },
    },
    {
      name: 'msw-only-in-the-preload',
      severity: 'error',
      comment:
        "msw intercepts a foreign Node server's outbound HTTP (mocks/intercept-preload.ts); the reference server answers its dependencies through direct-fetch, and loading msw would cost every server child's start",
      from: { path: '^(src|mocks)/', pathNot: '^mocks/intercept-preload\\.ts$' },
      to: { path: 'node_modules/msw/' },
    },
    {
      name: 'modern-front-ends-on-demand',
      severity: 'error',
      comment:
        'a server process loads the SDK 2.4 front end (server/modern/) only when it serves it (a dynamic import): most servers speak 2025-era only, and its modules cost every start',
      from: { path: '^src/server/(http-server|stdio-main)\\.ts$' },
      to: { path: '^src/server/modern/', dependencyTypesNot: ['dynamic-import', 'type-only'] },
    },
    {
      name: 'rare-paths-on-demand',
      severity: 'error',
      comment:
        "what few runs need loads when one needs it (a dynamic import): SDK 2.4's client (the 2026 era), the stdio bridge's HTTP server (hono), the Prometheus renderer (--metrics-out) and esbuild (a checkout's bundles; the compiled package never builds one). Statically imported, they cost every `faultline run` their load time and heap",
      from: { path: '^src/', pathNot: '^src/cli/record-command\\.ts$' },
      to: {
        path: '^src/(client/sdk2-client|targets/http-bridge|report/prometheus)\\.ts$|node_modules/esbuild/',
        dependencyTypesNot: ['dynamic-import', 'type-only'],
      },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
