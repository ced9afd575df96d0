import forge from 'node-forge'
import { rsaKeyPair } from '../../src/tls/ca.js'

// APNs certificates as Apple issues them, made here: a PKCS#12 file (certificate and key) whose
// subject is Apple's push certificate name and the app's bundle id as its UID.

const DAY_MS = 86_400_000
const keys = rsaKeyPair(forge)

export function apnsCertificate(opts: {
  cn: string
  password: string
  bundleId?: string
  /** Epoch ms: the certificate is valid ±`days` around it. */
  now: number
  days?: number
}): Buffer {
  const cert = forge.pki.createCertificate()
  cert.publicKey = keys.publicKey
  cert.serialNumber = '01'
  cert.validity.notBefore = new Date(opts.now - DAY_MS)
  cert.validity.notAfter = new Date(opts.now + (opts.days ?? 365) * DAY_MS)
  const subject = [
    { type: '0.9.2342.19200300.100.1.1', value: opts.bundleId ?? 'com.example.app' },
    { name: 'commonName', value: opts.cn },
    { name: 'organizationalUnitName', value: 'ABCDE12345' },
    { name: 'countryName', value: 'CN' },
  ]
  cert.setSubject(subject)
  cert.setIssuer([
    { name: 'commonName', value: 'Apple Worldwide Developer Relations Certification Authority' },
  ])
  cert.sign(keys.privateKey, forge.md.sha256.create())
  const p12 = forge.pkcs12.toPkcs12Asn1(keys.privateKey, [cert], opts.password, { algorithm: '3des' })
  return Buffer.from(forge.asn1.toDer(p12).getBytes(), 'binary')
}
