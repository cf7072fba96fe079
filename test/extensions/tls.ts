/**
 * A throw-away CA and a server certificate for the test extension, made with the real `openssl`
 * at test time (never committed): SANs 127.0.0.1, localhost and the Service name a port-forward
 * test verifies (`test-extension.test-system.svc`). A second, unrelated CA checks that a wrong
 * caBundle is refused.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestPki {
  caPem: string;
  otherCaPem: string;
  certPem: string;
  keyPem: string;
}

export const SERVICE_HOST = 'test-extension.test-system.svc';

function newCa(dir: string, name: string): void {
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      join(dir, `${name}.key`),
      '-out',
      join(dir, `${name}.crt`),
      '-subj',
      `/CN=${name}`,
      '-days',
      '2',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    ],
    { stdio: 'ignore' },
  );
}

export function makePki(): TestPki {
  const dir = mkdtempSync(join(tmpdir(), 'rcc-pki-'));
  newCa(dir, 'test-ca');
  newCa(dir, 'other-ca');
  execFileSync(
    'openssl',
    [
      'req',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      join(dir, 'server.key'),
      '-out',
      join(dir, 'server.csr'),
      '-subj',
      '/CN=test-extension',
    ],
    { stdio: 'ignore' },
  );
  writeFileSync(
    join(dir, 'ext.cnf'),
    `subjectAltName=IP:127.0.0.1,DNS:localhost,DNS:${SERVICE_HOST}\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n`,
  );
  execFileSync(
    'openssl',
    [
      'x509',
      '-req',
      '-in',
      join(dir, 'server.csr'),
      '-CA',
      join(dir, 'test-ca.crt'),
      '-CAkey',
      join(dir, 'test-ca.key'),
      '-CAcreateserial',
      '-out',
      join(dir, 'server.crt'),
      '-days',
      '2',
      '-extfile',
      join(dir, 'ext.cnf'),
    ],
    { stdio: 'ignore' },
  );
  const read = (f: string) => readFileSync(join(dir, f), 'utf8');
  return {
    caPem: read('test-ca.crt'),
    otherCaPem: read('other-ca.crt'),
    certPem: read('server.crt'),
    keyPem: read('server.key'),
  };
}
