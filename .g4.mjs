import { build } from 'esbuild';

const r = await build({
  entryPoints: [process.argv[2]],
  bundle: true,
  platform: 'node',
  format: 'esm',
  write: false,
  metafile: true,
  logLevel: 'silent',
  loader: { '.node': 'empty' },
  outfile: '/tmp/hs/x.mjs',
});
const inputs = r.metafile.inputs;
const fwd = new Map(
  Object.entries(inputs).map(([f, i]) => [f, i.imports.filter((x) => x.kind !== 'dynamic-import').map((x) => x.path)]),
);
const start = Object.keys(inputs).find((f) => f.endsWith(process.argv[2].replace(/^\.\//, '')));
const seen = new Set([start]);
const q = [start];
while (q.length)
  for (const n of fwd.get(q.shift()) ?? [])
    if (!seen.has(n)) {
      seen.add(n);
      q.push(n);
    }
const own = [...seen].filter((f) => !f.includes('node_modules')).map((f) => [f, inputs[f]?.bytes ?? 0]);
const byDir = new Map();
for (const [f, b] of own) {
  const d = f.split('/').slice(0, 3).join('/');
  byDir.set(d, (byDir.get(d) ?? 0) + b);
}
console.log(
  [...byDir]
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${(v / 1024).toFixed(0)} KB ${k}`)
    .join('\n'),
);
console.log(
  own
    .sort((a, b) => b[1] - a[1])
    .slice(0, 25)
    .map(([k, v]) => `${(v / 1024).toFixed(0)} KB ${k}`)
    .join('\n'),
);
