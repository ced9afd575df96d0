import { isIP } from 'node:net'
import type Forge from 'node-forge'
import { lazy } from '../lazy.js'
import type { CertificateAuthority } from './ca.js'
import { rsaKeyPair, serialNumber } from './ca.js'

const loadForge = lazy<typeof Forge>('node-forge')

/**
 * The vendor hosts the official SDKs hard-code (jpush-api.md §1.1, jsms-api.md §1.6): a client
 * whose DNS sends them to the sandbox, and which trusts the sandbox's CA, needs no other change.
 */
export const VENDOR_HOSTS = [
  'api.sms.jpush.cn',
  'api.jpush.cn',
  'device.jpush.cn',
  'report.jpush.cn',
  'bjapi.push.jiguang.cn',
  // The JPush Admin API (py core.py and the Java JPushConfig hard-code it): routed by Host (admin/host.ts).
  'admin.jpush.cn',
] as const

export const LOCAL_HOSTS = ['localhost', '127.0.0.1', '::1'] as const

export interface ServerCertificate {
  readonly certPem: string
  readonly keyPem: string
  readonly names: readonly string[]
}

const DAY_MS = 24 * 60 * 60 * 1000
// 397 days: the longest validity browsers and Apple's TLS stack accept for a server certificate.
const LEAF_VALIDITY_DAYS = 397

/** A server certificate for `names` (DNS names or IP addresses), signed by the CA. Made at each start. */
export function issueServerCert(
  ca: CertificateAuthority,
  names: readonly string[],
  now: number,
): ServerCertificate {
  const unique = [...new Set(names)]
  const forge = loadForge()
  const caCert = forge.pki.certificateFromPem(ca.certPem)
  const caKey = forge.pki.privateKeyFromPem(ca.keyPem)
  const keys = rsaKeyPair(forge)
  const cert = forge.pki.createCertificate()
  cert.publicKey = keys.publicKey
  cert.serialNumber = serialNumber()
  cert.validity.notBefore = new Date(now - 60 * 60 * 1000)
  cert.validity.notAfter = new Date(
    Math.min(now + LEAF_VALIDITY_DAYS * DAY_MS, caCert.validity.notAfter.getTime()),
  )
  cert.setSubject([
    { name: 'commonName', value: unique[0] ?? 'localhost' },
    { name: 'organizationName', value: 'jiguang-sandbox' },
  ])
  cert.setIssuer(caCert.subject.attributes)
  cert.setExtensions([
    { name: 'basicConstraints', cA: false, critical: true },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true },
    // Clients match the SAN list, never the CN (RFC 6125 §6.4.4).
    { name: 'subjectAltName', altNames: unique.map(altName) },
    { name: 'subjectKeyIdentifier' },
    { name: 'authorityKeyIdentifier', keyIdentifier: caCert.generateSubjectKeyIdentifier().getBytes() },
  ])
  cert.sign(caKey, forge.md.sha256.create())
  return {
    certPem: forge.pki.certificateToPem(cert),
    keyPem: keys.privateKeyPem,
    names: unique,
  }
}

// GeneralName types (RFC 5280 §4.2.1.6): 2 = dNSName, 7 = iPAddress.
function altName(name: string): { type: number; value?: string; ip?: string } {
  return isIP(name) ? { type: 7, ip: name } : { type: 2, value: name }
}
