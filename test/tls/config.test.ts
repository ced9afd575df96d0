import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../../src/config.js'

describe('TLS configuration', () => {
  it('keeps the CA beside the database unless CA_DIR says otherwise', () => {
    expect(loadConfig({ DB_PATH: '/data/sandbox.db' }).caDir).toBe('/data')
    expect(loadConfig({ DB_PATH: '/data/sandbox.db', CA_DIR: '/certs' }).caDir).toBe('/certs')
    expect(loadConfig({ DB_PATH: ':memory:' }).caDir).toBeUndefined()
  })

  it('has no TLS listener unless TLS_PORT is set, and reads extra names', () => {
    expect(loadConfig({}).tlsPort).toBeUndefined()
    expect(loadConfig({ TLS_PORT: '' }).tlsPort).toBeUndefined()
    const c = loadConfig({ TLS_PORT: '443', TLS_EXTRA_HOSTS: ' sandbox, 10.0.0.5 ,,' })
    expect(c.tlsPort).toBe(443)
    expect(c.tlsExtraHosts).toEqual(['sandbox', '10.0.0.5'])
  })

  it('refuses a TLS_PORT that is not a port', () => {
    expect(() => loadConfig({ TLS_PORT: '70000' })).toThrow(ConfigError)
    expect(() => loadConfig({ TLS_PORT: 'https' })).toThrow(/TLS_PORT/)
  })
})
