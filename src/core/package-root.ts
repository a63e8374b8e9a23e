// Where Faultline's own files are (package.json, chaos-profiles/, the bundled entry points in dist/bin/), whether
// it runs from the TypeScript sources, from the compiled modules (dist/src/) or from a bundle (dist/bin/).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** True when this is compiled JavaScript (dist/), not the TypeScript sources. */
export const COMPILED = import.meta.url.endsWith('.js');

/** The package's root folder: the nearest folder above this module that has a package.json. */
export const PACKAGE_ROOT = findRoot(dirname(fileURLToPath(import.meta.url)));

function findRoot(dir: string): string {
  if (existsSync(join(dir, 'package.json'))) return dir;
  const parent = dirname(dir);
  return parent === dir ? dir : findRoot(parent);
}

/** The fields of package.json that Faultline reads about itself. */
export interface PackageManifest {
  version?: string;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

let manifest: PackageManifest | undefined;

/** Faultline's own package.json (empty if it cannot be read). */
export function packageManifest(): PackageManifest {
  manifest ??= readManifest();
  return manifest;
}

function readManifest(): PackageManifest {
  try {
    return JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8'));
  } catch {
    return {};
  }
}

/** The version in package.json ('0.0.0' if it cannot be read). */
export function packageVersion(): string {
  const { version } = packageManifest();
  return typeof version === 'string' ? version : '0.0.0';
}
