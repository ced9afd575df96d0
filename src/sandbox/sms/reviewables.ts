import { z } from 'zod'
import type { RouteSpec } from '../../http/routes.js'
import { schemaRoute } from '../../http/schema.js'
import { signView } from '../../sms/signs/signs.js'
import { templateView } from '../../sms/templates/templates.js'
import type { Store } from '../../store/index.js'
import { iso, isoOrNull } from '../../time.js'

// The reviewer's desk, listed: every template and signature of the app with its review state, as
// the vendor's console lists them (JSMS has no list endpoint). Decisions: review.ts.

const reviewed = {
  refuse_reason: z.string().nullable(),
  /** When the clock approves it if nobody decides first (REVIEW_DELAY_MS after it was submitted). */
  review_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
}

const schemas = {
  templates: z.object({
    templates: z.array(
      z.object({
        temp_id: z.number(),
        template: z.string(),
        type: z.number(),
        ttl: z.number(),
        remark: z.string(),
        status: z.number(),
        ...reviewed,
      }),
    ),
  }),
  signs: z.object({
    signs: z.array(
      z.object({
        sign_id: z.number(),
        sign: z.string(),
        type: z.number().nullable(),
        remark: z.string(),
        status: z.number(),
        is_default: z.number(),
        use_status: z.number(),
        ...reviewed,
      }),
    ),
  }),
}

const review = (r: {
  refuseReason: string | null
  reviewAt: number | null
  createdAt: number
  updatedAt: number
}) => ({
  refuse_reason: r.refuseReason,
  review_at: isoOrNull(r.reviewAt),
  created_at: iso(r.createdAt),
  updated_at: iso(r.updatedAt),
})

/** GET /_sandbox/sms/templates and /signs: by id, status 0 under review, 1 approved, 2 rejected. */
export function smsReviewableRoutes(deps: { store: Store }): RouteSpec[] {
  const { store } = deps
  return [
    schemaRoute({
      method: 'GET',
      url: '/sms/templates',
      docs: {
        summary: "The app's templates with their reviews",
        description: `Every template by temp_id, with its status (0 under review, 1 approved, 2 rejected), the reviewer's
\`refuse_reason\`, and \`review_at\`, when a review under way completes on the app's clock.`,
      },
      schema: { response: { 200: schemas.templates } },
      handler: async req => {
        const { appKey } = req.tenant.app
        const templates = store.listings
          .templateIds(appKey)
          .flatMap(id => store.templates.get(appKey, id) ?? [])
        return { templates: templates.map(t => ({ ...templateView(t), ...review(t) })) }
      },
    }),
    schemaRoute({
      method: 'GET',
      url: '/sms/signs',
      docs: {
        summary: "The app's signatures with their reviews",
        description: `Every signature by sign_id, with its status (0 under review, 1 approved, 2 rejected), whether it is the
default, its \`refuse_reason\` and \`review_at\`.`,
      },
      schema: { response: { 200: schemas.signs } },
      handler: async req => {
        const { appKey } = req.tenant.app
        const signs = store.listings.signIds(appKey).flatMap(id => store.signs.get(appKey, id) ?? [])
        return {
          signs: signs.map(s => ({
            ...signView(s, store.signs.usedByMessages(appKey, s.signId)),
            type: s.type,
            remark: s.remark,
            ...review(s),
          })),
        }
      },
    }),
  ]
}
