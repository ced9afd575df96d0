import { X509Certificate } from 'node:crypto'
import { readFileSync, statSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { systemClock } from '../../src/clock.js'
import { CA_CERT_FILE, CA_KEY_FILE, loadOrCreateCa } from '../../src/tls/ca.js'
import { createTlsMaterial } from '../../src/tls/index.js'
import { issueServerCert, VENDOR_HOSTS } from '../../src/tls/server-cert.js'

const dirs: string[] = []
afterEach(async () => {
  await Promise.all(dirs.splice(0).map(d => rm(d, { recursive: true, force: true })))
})
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'sandbox-ca-'))
  dirs.push(dir)
  return dir
}

describe('local CA', () => {
  it('is created once in its folder and read back on the next start', async () => {
    const dir = await tempDir()
    const first = loadOrCreateCa(join(dir, 'ca'), systemClock.now())
    const second = loadOrCreateCa(join(dir, 'ca'), systemClock.now())
    expect(second).toEqual(first)
    const ca = new X509Certificate(first.certPem)
    expect(ca.ca).toBe(true)
    expect(ca.checkIssued(ca)).toBe(true)
    // The key stays private to the sandbox's user.
    expect(statSync(join(dir, 'ca', CA_KEY_FILE)).mode & 0o777).toBe(0o600)
  })

  it('is a new one when there is no folder (in-memory database)', () => {
    const a = loadOrCreateCa(undefined, systemClock.now())
    const b = loadOrCreateCa(undefined, systemClock.now())
    expect(a.certPem).not.toBe(b.certPem)
  })

  it('refuses to replace a certificate whose key is missing', async () => {
    const dir = await tempDir()
    const { certPem } = loadOrCreateCa(dir, systemClock.now())
    await rm(join(dir, CA_KEY_FILE))
    expect(() => loadOrCreateCa(dir, systemClock.now())).toThrow(/ENOENT/)
    expect(readFileSync(join(dir, CA_CERT_FILE), 'utf8')).toBe(certPem)
  })

  it('defaults to the folder of the database through the material provider', async () => {
    const dir = await tempDir()
    const material = createTlsMaterial({ caDir: dir, tlsExtraHosts: [] }, systemClock)
    expect(material.ca()).toBe(material.ca())
    expect(statSync(join(dir, CA_CERT_FILE)).isFile()).toBe(true)
  })
})

describe('server certificate', () => {
  const ca = loadOrCreateCa(undefined, systemClock.now())

  it('names every vendor host, localhost and the loopback addresses, and is issued by the CA', () => {
    const material = createTlsMaterial({ caDir: undefined, tlsExtraHosts: ['sandbox'] }, systemClock)
    const leaf = new X509Certificate(material.serverCert().certPem)
    const caCert = new X509Certificate(material.ca().certPem)
    for (const host of [...VENDOR_HOSTS, 'localhost', 'sandbox']) expect(leaf.checkHost(host)).toBe(host)
    expect(leaf.checkIP('127.0.0.1')).toBe('127.0.0.1')
    expect(leaf.checkHost('api.example.com')).toBeUndefined()
    expect(leaf.checkIssued(caCert)).toBe(true)
    expect(leaf.verify(caCert.publicKey)).toBe(true)
    expect(leaf.ca).toBe(false)
    expect(leaf.keyUsage).toContain('1.3.6.1.5.5.7.3.1') // serverAuth
  })

  it('is valid now and never outlives its CA', () => {
    const now = systemClock.now()
    const leaf = new X509Certificate(issueServerCert(ca, ['localhost'], now).certPem)
    expect(Date.parse(leaf.validFrom)).toBeLessThanOrEqual(now)
    expect(Date.parse(leaf.validTo)).toBeGreaterThan(now)
    expect(Date.parse(leaf.validTo)).toBeLessThanOrEqual(Date.parse(new X509Certificate(ca.certPem).validTo))
  })
})
