import type { Clock } from '../clock.js'
import type { Config } from '../config.js'
import { type CertificateAuthority, loadOrCreateCa } from './ca.js'
import { issueServerCert, LOCAL_HOSTS, type ServerCertificate, VENDOR_HOSTS } from './server-cert.js'

/** The CA and the server certificate, made on first use and then kept for the process. */
export interface TlsMaterial {
  ca(): CertificateAuthority
  serverCert(): ServerCertificate
}

/**
 * `clock` must be the real one: clients check validity against their own clocks, not against
 * the sandbox's movable app time.
 */
export function createTlsMaterial(
  config: Pick<Config, 'caDir' | 'tlsExtraHosts'>,
  clock: Clock,
): TlsMaterial {
  let ca: CertificateAuthority | undefined
  let leaf: ServerCertificate | undefined
  const material: TlsMaterial = {
    ca: () => {
      ca ??= loadOrCreateCa(config.caDir, clock.now())
      return ca
    },
    serverCert: () => {
      leaf ??= issueServerCert(
        material.ca(),
        [...VENDOR_HOSTS, ...LOCAL_HOSTS, ...config.tlsExtraHosts],
        clock.now(),
      )
      return leaf
    },
  }
  return material
}
