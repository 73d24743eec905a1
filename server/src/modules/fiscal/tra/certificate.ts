/**
 * The taxpayer's client certificate: TRA issues it as a password-protected PKCS#12 (.pfx), which
 * node:crypto cannot open, so node-forge reads it and hands the RSA key over as PEM. Every request
 * to TRA is signed with that key, SHA1withRSA (docs/fiscal-wire.md, "Signing"), through WebCrypto,
 * whose signing runs on libuv's thread pool: a batch of receipts is signed in parallel and off the
 * event loop that serves sales.
 */
import { createPrivateKey, webcrypto } from 'node:crypto';
import forge from 'node-forge';

export class CertificateError extends Error {}

export type SigningKey = webcrypto.CryptoKey;
const RSA_SHA1 = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-1' } as const;

/** The RSA private key inside a base64 .pfx; CertificateError names what is wrong with it. */
export async function openCertificate(pfxBase64: string, password: string): Promise<SigningKey> {
  let p12: forge.pkcs12.Pkcs12Pfx;
  try {
    const asn1 = forge.asn1.fromDer(forge.util.decode64(pfxBase64.replace(/\s+/g, '')));
    p12 = forge.pkcs12.pkcs12FromAsn1(asn1, password);
  } catch (err) {
    const why = /mac|password|decrypt/i.test(String((err as Error)?.message))
      ? 'the password does not open it'
      : 'it is not a PKCS#12 (.pfx) file';
    throw new CertificateError(`certificate: ${why}`);
  }
  const bagsOf = (type: string) => p12.getBags({ bagType: type })[type] ?? [];
  const bags = [...bagsOf(forge.pki.oids.pkcs8ShroudedKeyBag!), ...bagsOf(forge.pki.oids.keyBag!)];
  const key = bags.find((b) => b.key)?.key as forge.pki.rsa.PrivateKey | undefined;
  if (!key) throw new CertificateError('certificate: it holds no RSA private key');
  const der = createPrivateKey(forge.pki.privateKeyToPem(key)).export({ type: 'pkcs8', format: 'der' });
  return webcrypto.subtle.importKey('pkcs8', der, RSA_SHA1, false, ['sign']);
}

/** SHA1withRSA of the payload's UTF-8 bytes, base64, as TRA checks it. */
export async function signPayload(key: SigningKey, payload: string): Promise<string> {
  return Buffer.from(await webcrypto.subtle.sign(RSA_SHA1.name, key, Buffer.from(payload, 'utf8'))).toString('base64');
}
