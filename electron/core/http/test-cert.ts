// Tests only: a certificate authority of our own for 127.0.0.1, as an on-premises deployment
// has (made with openssl, valid two days), written into `dir`.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

/** Makes a self-signed CA certificate for 127.0.0.1 named `name`; its key and PEM text. */
export function makeTestCertificate(dir: string, name: string): { key: Buffer; cert: string } {
  const keyFile = path.join(dir, 'key.pem')
  const certFile = path.join(dir, 'cert.pem')
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '2',
      '-keyout',
      keyFile,
      '-out',
      certFile,
      '-subj',
      `/CN=${name}`,
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
    ],
    { stdio: 'ignore' },
  )
  return { key: fs.readFileSync(keyFile), cert: fs.readFileSync(certFile, 'utf8') }
}
