import { generateKeyPairSync, randomBytes } from 'node:crypto'
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type Forge from 'node-forge'
import { lazy } from '../lazy.js'

const loadForge = lazy<typeof Forge>('node-forge')

/** A local certificate authority: the one certificate a client has to trust. */
export interface CertificateAuthority {
  readonly certPem: string
  readonly keyPem: string
}

export const CA_CERT_FILE = 'sandbox-ca.pem'
export const CA_KEY_FILE = 'sandbox-ca-key.pem'

const DAY_MS = 24 * 60 * 60 * 1000
// Long-lived on purpose: a client that trusts it once should not have to trust it again.
const CA_VALIDITY_DAYS = 3650

/**
 * The CA kept in `dir`: read if it is there, created once otherwise. Without a folder (an
 * in-memory database) a fresh CA lives as long as the process.
 */
export function loadOrCreateCa(dir: string | undefined, now: number): CertificateAuthority {
  if (dir === undefined) return createCa(now)
  const certPath = join(dir, CA_CERT_FILE)
  const keyPath = join(dir, CA_KEY_FILE)
  const existing = readPair(certPath, keyPath)
  if (existing) return existing
  const ca = createCa(now)
  mkdirSync(dir, { recursive: true })
  // Key first, certificate last, each renamed into place: a crash never leaves a certificate
  // without its key, and a reader never sees half a file.
  writeAtomically(keyPath, ca.keyPem, 0o600)
  writeAtomically(certPath, ca.certPem, 0o644)
  return ca
}

function createCa(now: number): CertificateAuthority {
  const forge = loadForge()
  const keys = rsaKeyPair(forge)
  const cert = forge.pki.createCertificate()
  cert.publicKey = keys.publicKey
  cert.serialNumber = serialNumber()
  // An hour of slack for clients whose clock is a little behind.
  cert.validity.notBefore = new Date(now - 60 * 60 * 1000)
  cert.validity.notAfter = new Date(now + CA_VALIDITY_DAYS * DAY_MS)
  const subject = [
    { name: 'commonName', value: `jiguang-sandbox local CA ${cert.serialNumber.slice(0, 8)}` },
    { name: 'organizationName', value: 'jiguang-sandbox' },
  ]
  cert.setSubject(subject)
  cert.setIssuer(subject)
  cert.setExtensions([
    { name: 'basicConstraints', cA: true, pathLenConstraint: 0, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ])
  cert.sign(keys.privateKey, forge.md.sha256.create())
  return { certPem: forge.pki.certificateToPem(cert), keyPem: keys.privateKeyPem }
}

/**
 * A 2048-bit RSA key pair from node:crypto (OpenSSL: milliseconds, where node-forge's pure-JS
 * generator takes a second or more), as the forge objects the certificate code signs with.
 */
export function rsaKeyPair(forge: typeof Forge) {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicExponent: 0x10001,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    // PKCS#1 (`RSA PRIVATE KEY`), the form node-forge wrote: a CA key kept on disk reads the same.
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
  })
  return {
    publicKey: forge.pki.publicKeyFromPem(publicKey),
    privateKey: forge.pki.privateKeyFromPem(privateKey),
    privateKeyPem: privateKey,
  }
}

/** A positive 128-bit serial (RFC 5280 §4.1.2.2: positive, unique per issuer). */
export function serialNumber(): string {
  const bytes = randomBytes(16)
  bytes[0] = (bytes[0] ?? 0) & 0x7f
  return bytes.toString('hex')
}

function readPair(certPath: string, keyPath: string): CertificateAuthority | undefined {
  let certPem: string
  try {
    certPem = readFileSync(certPath, 'utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw err
  }
  // A certificate without its key is damage, not absence: say so rather than replace a trusted CA.
  const keyPem = readFileSync(keyPath, 'utf8')
  return { certPem, keyPem }
}

function writeAtomically(path: string, text: string, mode: number): void {
  const tmp = `${path}.${process.pid}.tmp`
  writeFileSync(tmp, text, { mode })
  renameSync(tmp, path)
}
