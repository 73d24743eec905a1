/**
 * A TRA client certificate made at test time: a self-signed X.509 certificate and its RSA key in
 * a password-protected PKCS#12 (.pfx), the shape TRA issues to a taxpayer. No private key is ever
 * committed; each test process makes its own.
 *
 * The RSA key is generated once per process (node:crypto is native and fast, forge's own keygen
 * is seconds of JavaScript) and shared by every certificate made here: a certificate's identity in
 * the tests is its serial, not its key.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import forge from 'node-forge';

export interface TraCertificate {
  /** The .pfx file, base64, as an operator would upload it. */
  pfxBase64: string;
  password: string;
  /** The certificate's X.509 serial number in hex: what `Cert-Serial` carries, base64-encoded. */
  serial: string;
  certPem: string;
  publicKeyPem: string;
  privateKeyPem: string;
}

type KeyPair = { publicKeyPem: string; privateKeyPem: string };
const keys = new Map<string, KeyPair>();

/** An RSA-2048 key pair (PKCS#8 private key, SPKI public key) made once per process under `name`. */
function processKeyPair(name: string): KeyPair {
  let pair = keys.get(name);
  if (!pair) {
    const { publicKey, privateKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
    pair = { publicKeyPem: publicKey, privateKeyPem: privateKey };
    keys.set(name, pair);
  }
  return pair;
}

/** The taxpayers' key: every test certificate of this process carries it. */
export const testKeyPair = (): KeyPair => processKeyPair('taxpayer');

/** TRA's own key pair, which the fake signs its answers with: another key than the taxpayers'. */
export const traAnswerKeyPair = (): KeyPair => processKeyPair('tra');

export function makeTraCertificate(opts: { serial?: string; password?: string; cn?: string } = {}): TraCertificate {
  // A leading 1-7 nibble keeps the DER integer positive and its hex free of a leading zero.
  const serial = opts.serial ?? `${1 + (randomBytes(1)[0]! % 7)}${randomBytes(7).toString('hex')}`;
  if (!/^[1-7][0-9a-f]*$/.test(serial)) throw new Error(`serial must be lower-case hex starting 1-7, got ${serial}`);
  const password = opts.password ?? `pfx-${randomBytes(6).toString('hex')}`;
  const { publicKeyPem, privateKeyPem } = testKeyPair();
  const key = forge.pki.privateKeyFromPem(privateKeyPem);

  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicKeyPem);
  cert.serialNumber = serial;
  cert.validity.notBefore = new Date(Date.now() - 86_400_000);
  cert.validity.notAfter = new Date(Date.now() + 365 * 86_400_000);
  const subject = [
    { name: 'commonName', value: opts.cn ?? 'DUKA TEST TAXPAYER' },
    { name: 'organizationName', value: 'Tanzania Revenue Authority (test)' },
    { name: 'countryName', value: 'TZ' },
  ];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.sign(key, forge.md.sha256.create());

  const p12 = forge.pkcs12.toPkcs12Asn1(key, [cert], password, { algorithm: '3des' });
  return {
    pfxBase64: forge.util.encode64(forge.asn1.toDer(p12).getBytes()),
    password,
    serial,
    certPem: forge.pki.certificateToPem(cert),
    publicKeyPem,
    privateKeyPem,
  };
}
