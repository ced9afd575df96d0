import { z } from 'zod'
import { sandboxErrors } from '../control/errors.js'
import type { RouteSpec } from '../http/routes.js'
import { schemaRoute } from '../http/schema.js'
import type { Store } from '../store/index.js'
import { iso } from '../time.js'

// The APNs certificates the Admin API kept for the app (POST /v1/app/{appKey}/certificate on the
// admin host, docs/jpush-wire.md "Admin API"): what was read from each, and the file as uploaded.

const certificate = z.object({
  environment: z.enum(['dev', 'pro']),
  file_name: z.string(),
  subject: z.string().describe('The certificate’s common name.'),
  bundle_id: z.string().nullable(),
  not_after: z.string(),
  uploaded_at: z.string(),
  size: z.int(),
  url: z.string().describe('Where GET answers the .p12 as uploaded.'),
})

export function certificateRoutes(deps: { store: Store }): RouteSpec[] {
  const { store } = deps
  return [
    schemaRoute({
      method: 'GET',
      url: '/app/certificates',
      docs: {
        summary: "The app's APNs certificates, as the Admin API kept them",
        description:
          'Each certificate uploaded with `POST /v1/app/{appKey}/certificate` on the Admin API (docs/jpush-wire.md), one per environment (`dev`, `pro`), with what its PKCS#12 file says (subject, bundle id, expiry) and the address of its bytes.',
      },
      schema: { response: { 200: z.object({ certificates: z.array(certificate) }) } },
      handler: async req => ({
        certificates: store.admin.certificates(req.tenant.app.appKey).map(c => ({
          environment: c.environment,
          file_name: c.fileName,
          subject: c.subject,
          bundle_id: c.bundleId,
          not_after: iso(c.notAfter),
          uploaded_at: iso(c.uploadedAt),
          size: c.bytes.length,
          url: `/_sandbox/app/certificates/${c.environment}`,
        })),
      }),
    }),
    schemaRoute({
      method: 'GET',
      url: '/app/certificates/:environment',
      docs: {
        summary: 'An APNs certificate, byte for byte as uploaded',
        description:
          'The file of the environment (`dev` or `pro`) as the Admin API received it; 404 when none was uploaded.',
        errors: [sandboxErrors.notFound()],
        answers: { 200: { description: 'The PKCS#12 file.', media: 'application/x-pkcs12' } },
      },
      schema: { params: z.object({ environment: z.enum(['dev', 'pro']) }) },
      handler: async (req, reply) => {
        const c = store.admin
          .certificates(req.tenant.app.appKey)
          .find(x => x.environment === req.params.environment)
        if (!c) throw sandboxErrors.notFound()
        return reply.type('application/x-pkcs12').send(c.bytes)
      },
    }),
  ]
}
