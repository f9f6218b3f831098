// A certificate authority made in-process for one test run, and server certificates it signs: what a
// local HTTPS server needs for a service under test to trust it (through NODE_EXTRA_CA_CERTS), with no
// openssl on the machine.
import 'reflect-metadata';
import { randomBytes, webcrypto } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface ServerCertificate {
  /** PEM, for `https.createServer({ cert, key })`. */
  cert: string;
  key: string;
}

export interface TestCa {
  /** The CA certificate as PEM. */
  certificatePem: string;
  /** A file holding the CA certificate: the value of NODE_EXTRA_CA_CERTS for a process that must trust it. */
  certificateFile: string;
  /** A server certificate for these host names and IP addresses, signed by the CA. */
  issueServerCertificate(hosts: string[]): Promise<ServerCertificate>;
  close(): Promise<void>;
}

/** Serial numbers are positive integers: a leading byte below 0x80. */
function serialNumber(): string {
  return `01${randomBytes(15).toString('hex')}`;
}

function pem(label: string, der: ArrayBuffer): string {
  const base64 = Buffer.from(der).toString('base64').replace(/.{64}/g, '$&\n');
  return `-----BEGIN ${label}-----\n${base64}${base64.endsWith('\n') ? '' : '\n'}-----END ${label}-----\n`;
}

export async function createTestCa(): Promise<TestCa> {
  const subtle = webcrypto.subtle;
  const caKeys = (await subtle.generateKey(ALGORITHM, false, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const notBefore = new Date(Date.now() - DAY_MS);
  const notAfter = new Date(Date.now() + DAY_MS);
  const caName = `CN=stdreg test CA ${randomBytes(4).toString('hex')}`;
  const ca = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serialNumber(),
    name: caName,
    notBefore,
    notAfter,
    signingAlgorithm: ALGORITHM,
    keys: caKeys,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(caKeys.publicKey),
    ],
  });
  const certificatePem = ca.toString('pem');
  const dir = await mkdtemp(path.join(tmpdir(), 'stdreg-test-ca-'));
  const certificateFile = path.join(dir, 'ca.pem');
  await writeFile(certificateFile, `${certificatePem}\n`);

  return {
    certificatePem,
    certificateFile,
    async issueServerCertificate(hosts) {
      const keys = (await subtle.generateKey(ALGORITHM, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
      const certificate = await x509.X509CertificateGenerator.create({
        serialNumber: serialNumber(),
        subject: `CN=${hosts[0] ?? 'localhost'}`,
        issuer: ca.subject,
        notBefore,
        notAfter,
        signingAlgorithm: ALGORITHM,
        publicKey: keys.publicKey,
        signingKey: caKeys.privateKey,
        extensions: [
          new x509.BasicConstraintsExtension(false, undefined, true),
          new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
          new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
          new x509.SubjectAlternativeNameExtension(
            hosts.map((host) => ({ type: isIP(host) ? ('ip' as const) : ('dns' as const), value: host })),
          ),
          await x509.AuthorityKeyIdentifierExtension.create(ca),
        ],
      });
      return { cert: certificate.toString('pem'), key: pem('PRIVATE KEY', await subtle.exportKey('pkcs8', keys.privateKey)) };
    },
    close: () => rm(dir, { recursive: true, force: true }),
  };
}
