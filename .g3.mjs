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
const pkgOf = (f) => (f.match(/node_modules\/((@[^/]+\/)?[^/]+)/) ?? [])[1] ?? 'own';
const bytes = new Map();
let total = 0;
for (const f of seen) {
  const b = inputs[f]?.bytes ?? 0;
  total += b;
  bytes.set(pkgOf(f), (bytes.get(pkgOf(f)) ?? 0) + b);
}
console.log('static total KB', (total / 1024).toFixed(0));
console.log(
  [...bytes]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 25)
    .map(([k, v]) => `${(v / 1024).toFixed(0)} KB ${k}`)
    .join('\n'),
);
