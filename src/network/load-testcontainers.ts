// testcontainers is an optional peer dependency: only `--toxiproxy container` needs it, and it brings a few
// hundred packages (docker-modem, ssh2, archivers) that an embedded or external run never loads. Imported here,
// on first use, with one line saying how to install it when it is missing.
import { packageManifest } from '../core/package-root.ts';
import { NetworkBackendError } from './backend.ts';

type Testcontainers = typeof import('testcontainers');

/** The version this package is tested with (its devDependency), for the install hint. */
function testedVersion(): string {
  const manifest = packageManifest();
  const pinned = manifest.devDependencies?.testcontainers ?? manifest.peerDependencies?.testcontainers ?? '';
  return pinned.replace(/^[\^~]/, '');
}

function isMissingPackage(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: string; message?: string };
  return code === 'ERR_MODULE_NOT_FOUND' && /['"]testcontainers['"]/.test(message ?? '');
}

export async function loadTestcontainers(): Promise<Testcontainers> {
  try {
    return await import('testcontainers');
  } catch (error) {
    if (!isMissingPackage(error)) throw error;
    const version = testedVersion();
    throw new NetworkBackendError(
      `toxiproxy container backend: testcontainers is not installed (an optional peer dependency); ` +
        `npm install testcontainers${version ? `@${version}` : ''}, or use --toxiproxy embedded`,
      'container',
    );
  }
}
