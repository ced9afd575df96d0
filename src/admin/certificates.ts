import type { FastifyRequest } from 'fastify'
import type Forge from 'node-forge'
import { z } from 'zod'
import { readForm } from '../http/body/multipart.js'
import { part } from '../http/reads.js'
import { lazy } from '../lazy.js'
import { adminErrors as e } from './errors.js'
import type { CertificateEnvironment } from './table.js'

const forge = lazy<typeof Forge>('node-forge')

// POST /v1/app/{appKey}/certificate (docs/jpush-wire.md "Admin API"): the app's APNs certificates,
// a PKCS#12 file per environment with its password, as the vendor's curl example and the clients
// send them (`devCertificateFile` + `devCertificatePassword`, `proCertificateFile` +
// `proCertificatePassword`). A certificate is kept once it opens with its password, holds a
// certificate and its key, is an Apple push certificate for that environment, and is not expired.

export const CERTIFICATE_LIMITS = {
  /** The sandbox's: an APNs .p12 is a few KB. */
  fileBytes: 256 * 1024,
  bodyBytes: 2 * 256 * 1024 + 16 * 1024,
} as const

export interface UploadedCertificate {
  environment: CertificateEnvironment
  fileName: string
  bytes: Buffer
  password: string
}

/** What was read from a certificate that opened. */
export interface CertificateInfo {
  subject: string
  bundleId: string | null
  notAfter: number
}

/** The form's certificates: each file with its password (an absent password is the empty one). */
export async function readCertificateForm(req: FastifyRequest): Promise<UploadedCertificate[]> {
  const form = await readForm(
    req,
    { maxFileBytes: CERTIFICATE_LIMITS.fileBytes, maxFiles: 2, maxFields: 4 },
    {
      empty: () => e.noCertificateFile(),
      notMultipart: () => e.invalid('body (a multipart/form-data form)'),
      unreadable: reason => e.invalid(`body (${reason})`),
    },
  )
  const out: UploadedCertificate[] = []
  for (const environment of ['dev', 'pro'] as const) {
    const file = form.files.find(f => f.field === `${environment}CertificateFile`)
    if (!file) continue
    if (file.truncated)
      throw e.certificateInvalid(
        `${environment}CertificateFile is over ${CERTIFICATE_LIMITS.fileBytes} bytes`,
      )
    const password = form.fields.get(`${environment}CertificatePassword`)?.[0] ?? ''
    const name = file.filename.split(/[\\/]/).pop() || `${environment}.p12`
    out.push({ environment, fileName: name.slice(0, 255), bytes: file.bytes, password })
  }
  if (out.length === 0) throw e.noCertificateFile()
  return out
}

export const certificateForm = part({
  in: 'body',
  read: readCertificateForm,
  schema: z.object({
    devCertificateFile: z
      .string()
      .meta({ contentMediaType: 'application/x-pkcs12' })
      .describe('The development .p12.')
      .optional(),
    devCertificatePassword: z.string().optional(),
    proCertificateFile: z
      .string()
      .meta({ contentMediaType: 'application/x-pkcs12' })
      .describe('The production .p12.')
      .optional(),
    proCertificatePassword: z.string().optional(),
  }),
  errors: [e.noCertificateFile(), e.invalid('body (a multipart/form-data form)')],
  media: 'multipart/form-data',
  limit: CERTIFICATE_LIMITS.bodyBytes,
})

const UID = '0.9.2342.19200300.100.1.1'

/**
 * Opens a certificate as the vendor must to use it: 1012 when it does not open with its password,
 * holds no certificate or key, is no Apple push certificate for its environment (a universal
 * "Apple Push Services" one serves both), or is expired at `now`.
 */
export function checkCertificate(c: UploadedCertificate, now: number): CertificateInfo {
  const f = forge()
  const slot = `${c.environment}CertificateFile`
  let p12: Forge.pkcs12.Pkcs12Pfx
  try {
    const der = f.util.createBuffer(c.bytes.toString('binary'))
    p12 = f.pkcs12.pkcs12FromAsn1(f.asn1.fromDer(der), c.password)
  } catch {
    throw e.certificateInvalid(`${slot} is no PKCS#12 file that opens with its password`)
  }
  const certBag = p12.getBags({ bagType: f.pki.oids.certBag })[f.pki.oids.certBag!]?.[0]
  const keyBags = [
    ...(p12.getBags({ bagType: f.pki.oids.pkcs8ShroudedKeyBag })[f.pki.oids.pkcs8ShroudedKeyBag!] ?? []),
    ...(p12.getBags({ bagType: f.pki.oids.keyBag })[f.pki.oids.keyBag!] ?? []),
  ]
  const cert = certBag?.cert
  if (!cert || keyBags.length === 0) throw e.certificateInvalid(`${slot} holds no certificate and key`)
  const subject = String(cert.subject.getField('CN')?.value ?? '')
  const push =
    /^Apple (Push Services|Sandbox Push Services|Development IOS Push Services|Production IOS Push Services):/
  const wrongSlot = c.environment === 'dev' ? /Production IOS/ : /Development IOS|Sandbox/
  if (!push.test(subject) || wrongSlot.test(subject))
    throw e.certificateInvalid(
      `${slot} is no Apple push certificate for ${c.environment === 'dev' ? 'development' : 'production'}`,
    )
  if (cert.validity.notAfter.getTime() <= now || cert.validity.notBefore.getTime() > now)
    throw e.certificateInvalid(`${slot} is not valid now`)
  const uid = cert.subject.attributes.find(a => a.type === UID)?.value
  return {
    subject,
    bundleId: typeof uid === 'string' ? uid : null,
    notAfter: cert.validity.notAfter.getTime(),
  }
}
