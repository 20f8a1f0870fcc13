import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

// A certificate authority made for one test run with the openssl CLI, and server
// certificates it issues, as PEM files in a temporary directory. Nothing outside the test trusts it.

const run = promisify(execFile);

export interface IssuedCertificate {
  certFile: string;
  keyFile: string;
}

export interface ThrowawayCa {
  dir: string;
  /** The CA's certificate: what OPENSEARCH_CA_FILE, DATABASE_CA_FILE or REDIS_CA_FILE names. */
  caFile: string;
  /** A server certificate for these subjectAltName entries (`IP:127.0.0.1`, `DNS:localhost`). */
  issue(name: string, altNames: string[]): Promise<IssuedCertificate>;
  remove(): Promise<void>;
}

const EC_KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

export async function throwawayCa(): Promise<ThrowawayCa> {
  const dir = await mkdtemp(path.join(tmpdir(), 'throwaway-ca-'));
  const caFile = path.join(dir, 'ca.pem');
  const caKey = path.join(dir, 'ca.key');
  await run('openssl', [
    'req',
    '-x509',
    ...EC_KEY,
    '-keyout',
    caKey,
    '-out',
    caFile,
    '-days',
    '2',
    '-subj',
    '/CN=throwaway test CA',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
  return {
    dir,
    caFile,
    async issue(name, altNames) {
      const keyFile = path.join(dir, `${name}.key`);
      const certFile = path.join(dir, `${name}.pem`);
      const csr = path.join(dir, `${name}.csr`);
      const ext = path.join(dir, `${name}.ext`);
      await writeFile(
        ext,
        [
          `subjectAltName=${altNames.join(',')}`,
          'basicConstraints=CA:FALSE',
          'keyUsage=digitalSignature,keyEncipherment',
          'extendedKeyUsage=serverAuth,clientAuth',
        ].join('\n'),
      );
      await run('openssl', [
        'req',
        ...EC_KEY,
        '-keyout',
        keyFile,
        '-out',
        csr,
        '-subj',
        `/CN=${name}`,
      ]);
      await run('openssl', [
        'x509',
        '-req',
        '-in',
        csr,
        '-CA',
        caFile,
        '-CAkey',
        caKey,
        '-CAcreateserial',
        '-days',
        '2',
        '-out',
        certFile,
        '-extfile',
        ext,
      ]);
      return { certFile, keyFile };
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}
