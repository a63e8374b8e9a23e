// The Kubernetes manifests (deploy/kubernetes/) validated offline against the Kubernetes 1.27 OpenAPI schemas
// through the kubernetes-models model classes, and checked to fit together: the Indexed Job's shard arithmetic,
// the headless Toxiproxy Service, the profiles in the ConfigMap (valid Faultline profiles aimed at the sut
// Service), the results volume, and the GitHub Actions recipe in docs/scale.md.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { parseShard } from '../../../src/core/shard.ts';
import { needsLinkProxy } from '../../../src/faults/kind.ts';
import { parseProfile } from '../../../src/profile/load.ts';
import { traitsOf } from '../../../src/server/tools/catalog.ts';

type ModelClass = new (data: unknown) => { validate(): void };
type Doc = Record<string, any>;

const DIR = fileURLToPath(new URL('../../../deploy/kubernetes/', import.meta.url));
const DOCS_MD = fileURLToPath(new URL('../../../docs/scale.md', import.meta.url));

const manifests: { file: string; doc: Doc }[] = readdirSync(DIR)
  .filter((f) => f.endsWith('.yaml'))
  .sort()
  .flatMap((file) =>
    parseAllDocuments(readFileSync(`${DIR}${file}`, 'utf8')).map((d) => {
      if (d.errors.length > 0) throw new Error(`${file}: ${d.errors[0].message}`);
      return { file, doc: d.toJS() as Doc };
    }),
  );

const find = (kind: string, name: string): Doc => {
  const hit = manifests.find(({ doc }) => doc.kind === kind && doc.metadata?.name === name);
  if (!hit) throw new Error(`no ${kind} ${name} in deploy/kubernetes/`);
  return hit.doc;
};

// kubernetes-models@4.5.1 (Node >= 14; v5 needs Node 22). Imported by a computed name so the type check does not
// depend on it; a missing package fails the validation tests (the others still run).
let models: Record<string, ModelClass>;

const modelOf = (doc: Doc): ModelClass => {
  const model = models[`${doc.apiVersion} ${doc.kind}`];
  if (!model) throw new Error(`no model for ${doc.apiVersion} ${doc.kind}: add it to the test before shipping it`);
  return model;
};

describe('deploy/kubernetes validates against the Kubernetes schemas', () => {
  beforeAll(async () => {
    const load = (path: string) => import(/* @vite-ignore */ `kubernetes-models/${path}`);
    const [batch, apps, core] = await Promise.all([load('batch/v1'), load('apps/v1'), load('v1')]);
    models = {
      'batch/v1 Job': batch.Job,
      'apps/v1 Deployment': apps.Deployment,
      'v1 Service': core.Service,
      'v1 PersistentVolumeClaim': core.PersistentVolumeClaim,
      'v1 ConfigMap': core.ConfigMap,
    };
  });

  it.each(manifests.map(({ file, doc }) => [`${file}: ${doc.kind}/${doc.metadata?.name}`, doc]))('%s', (_, doc) => {
    expect(() => new (modelOf(doc as Doc))(doc).validate()).not.toThrow();
  });

  it('rejects invalid manifests (the validator can fail)', () => {
    const job = structuredClone(find('Job', 'faultline-shards'));
    job.spec.completionMode = 'Sometimes';
    expect(() => new models['batch/v1 Job'](job).validate()).toThrow(/completionMode/);
    const counted = structuredClone(find('Job', 'faultline-shards'));
    counted.spec.completions = 'three';
    expect(() => new models['batch/v1 Job'](counted).validate()).toThrow(/completions/);
    const deployment = structuredClone(find('Deployment', 'toxiproxy'));
    delete deployment.spec.selector;
    expect(() => new models['apps/v1 Deployment'](deployment).validate()).toThrow(/selector/);
    const claim = structuredClone(find('PersistentVolumeClaim', 'faultline-results'));
    claim.spec.accessModes = 'ReadWriteMany';
    expect(() => new models['v1 PersistentVolumeClaim'](claim).validate()).toThrow(/accessModes/);
  });
});

describe('the manifests fit together', () => {
  it('holds the Jobs, Deployments, Services, claim and ConfigMap the sharded run needs', () => {
    expect(manifests.map(({ doc }) => `${doc.kind}/${doc.metadata.name}`).sort()).toEqual([
      'ConfigMap/faultline-profiles',
      'Deployment/sut',
      'Deployment/toxiproxy',
      'Job/faultline-merge',
      'Job/faultline-shards',
      'PersistentVolumeClaim/faultline-results',
      'Service/sut',
      'Service/toxiproxy',
    ]);
  });

  const shards = () => find('Job', 'faultline-shards');
  const env = (job: Doc, name: string) =>
    job.spec.template.spec.containers[0].env.find((e: Doc) => e.name === name)?.value;
  const script = (job: Doc) => job.spec.template.spec.containers[0].args.join('\n') as string;

  it('runs one Indexed pod per shard, N the same in completions, parallelism and both Jobs', () => {
    const job = shards();
    expect(job.spec.completionMode).toBe('Indexed');
    const n = job.spec.completions;
    expect(n).toBeGreaterThan(1);
    expect(job.spec.parallelism).toBe(n);
    expect(Number(env(job, 'SHARDS'))).toBe(n);
    expect(Number(env(find('Job', 'faultline-merge'), 'SHARDS'))).toBe(n);
    expect(job.spec.template.spec.restartPolicy).toBe('Never');
  });

  it('gives pod k shard k+1 of N, on the shared Toxiproxy, writing /results/shard-k', () => {
    const text = script(shards());
    expect(text).toContain('--shard "$((JOB_COMPLETION_INDEX + 1))/$SHARDS"');
    expect(text).toContain('--toxiproxy http://toxiproxy:8474 --allow-non-loopback');
    expect(text).toContain('out="/results/shard-$JOB_COMPLETION_INDEX"');
    expect(text).toContain('--out "$out"');
    const n = shards().spec.completions;
    // What the shell arithmetic yields for every index is a shard the CLI accepts, and together they cover 1..N.
    const given = Array.from({ length: n }, (_, k) => parseShard(`${k + 1}/${n}`));
    expect(given.map((s) => s.index)).toEqual(Array.from({ length: n }, (_, k) => k + 1));
    expect(() => parseShard(`${n + 1}/${n}`)).toThrow();
  });

  it('merges exactly the N shard folders, after them, into /results/merged', () => {
    const text = script(find('Job', 'faultline-merge'));
    expect(text).toContain('while [ "$i" -lt "$SHARDS" ]; do dirs="$dirs /results/shard-$i"');
    expect(text).toContain('faultline.js merge $dirs --out /results/merged');
  });

  it('shares one ReadWriteMany results claim between the shard pods and the merge', () => {
    const claim = find('PersistentVolumeClaim', 'faultline-results');
    expect(claim.spec.accessModes).toEqual(['ReadWriteMany']);
    for (const job of [shards(), find('Job', 'faultline-merge')]) {
      const volume = job.spec.template.spec.volumes.find((v: Doc) => v.name === 'results');
      expect(volume.persistentVolumeClaim.claimName).toBe('faultline-results');
      const mount = job.spec.template.spec.containers[0].volumeMounts.find((m: Doc) => m.name === 'results');
      expect(mount.mountPath).toBe('/results');
    }
  });

  it("serves Toxiproxy's API and every proxy port through a headless Service that selects its pod", () => {
    const service = find('Service', 'toxiproxy');
    const deployment = find('Deployment', 'toxiproxy');
    expect(service.spec.clusterIP).toBe('None');
    expect(service.spec.ports[0].port).toBe(8474);
    expect(deployment.spec.template.metadata.labels).toMatchObject(service.spec.selector);
    expect(deployment.spec.selector.matchLabels).toEqual(service.spec.selector);
    expect(deployment.spec.template.spec.containers[0].args).toContain('-port=8474');
  });

  it('mounts the ConfigMap of valid Faultline profiles, aimed at the sut Service: network faults, reads only', () => {
    const job = shards();
    const volume = job.spec.template.spec.volumes.find((v: Doc) => v.name === 'profiles');
    expect(volume.configMap.name).toBe('faultline-profiles');
    expect(script(job)).toContain('run /profiles');
    const service = find('Service', 'sut');
    const deployment = find('Deployment', 'sut');
    expect(deployment.spec.template.metadata.labels).toMatchObject(service.spec.selector);
    const data = find('ConfigMap', 'faultline-profiles').data as Record<string, string>;
    expect(Object.keys(data).length).toBe(job.spec.completions);
    for (const [file, text] of Object.entries(data)) {
      const { profile } = parseProfile(file, text);
      expect(`${profile.name}.yaml`).toBe(file);
      expect(profile.target.kind).toBe('url');
      const url = new URL((profile.target as { url: string }).url);
      expect(url.hostname).toBe(service.metadata.name);
      expect(Number(url.port)).toBe(service.spec.ports[0].port);
      // No control API: with many shards on one server, a reset or ledger read would touch the others' effects.
      expect((profile.target as { admin?: string }).admin).toBeUndefined();
      for (const fault of profile.faults) expect(fault.seam, `${file}: ${fault.kind}`).toBe('network');
      // Side effects would share idempotency keys (idem-<op id>) across shards on one server: reads only.
      for (const item of profile.workload.mix) expect(traitsOf(item.tool).sideEffecting, item.tool).toBe(false);
      expect(profile.expect.length).toBeGreaterThan(0);
    }
  });

  it("lets every profile's requests past the sut's DNS-rebinding protection, by the Host they name", () => {
    const args = find('Deployment', 'sut').spec.template.spec.containers[0].args as string[];
    const allowed = args.flatMap((arg, i) => (args[i - 1] === '--allow-host' ? [arg] : []));
    const data = find('ConfigMap', 'faultline-profiles').data as Record<string, string>;
    for (const [file, text] of Object.entries(data)) {
      const { profile } = parseProfile(file, text);
      // Through the toxiproxy Service where the profile has network faults, straight to the URL's host otherwise.
      const host = needsLinkProxy(profile.faults)
        ? find('Service', 'toxiproxy').metadata.name
        : new URL((profile.target as { url: string }).url).hostname;
      expect(allowed, file).toContain(host);
    }
  });
});

describe('docs/scale.md', () => {
  const blocks = [...readFileSync(DOCS_MD, 'utf8').matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]);

  it('has YAML blocks that parse', () => {
    expect(blocks.length).toBeGreaterThan(0);
    for (const block of blocks) expect(() => parse(block)).not.toThrow();
  });

  it('has a GitHub Actions recipe: a shard matrix, then a merge that needs every shard', () => {
    const workflow = blocks.map((b) => parse(b) as Doc).find((d) => d?.jobs?.shard && d?.jobs?.merge);
    expect(workflow, 'a workflow with jobs shard and merge').toBeDefined();
    const shard = workflow!.jobs.shard;
    const indices: number[] = shard.strategy.matrix.index;
    const n = indices.length;
    expect(indices).toEqual(Array.from({ length: n }, (_, k) => k + 1));
    expect(shard.strategy['fail-fast']).toBe(false);
    const steps = JSON.stringify(shard.steps);
    expect(steps).toContain(`--shard \${{ matrix.index }}/${n}`);
    expect(steps).toContain('actions/upload-artifact');
    const merge = workflow!.jobs.merge;
    expect(merge.needs).toBe('shard');
    const mergeSteps = JSON.stringify(merge.steps);
    expect(mergeSteps).toContain('actions/download-artifact');
    expect(mergeSteps).toContain('faultline merge');
  });
});
