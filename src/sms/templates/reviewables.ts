import { z } from 'zod'
import { signItem, templateItem } from '../../changes/items.js'
import type { RouteSpec } from '../../http/routes.js'
import { schemaRoute } from '../../http/schema.js'
import type { Store } from '../../store/index.js'

// The reviewer's desk, listed: every template and signature of the app with its review state, as
// the vendor's console lists them (JSMS has no list endpoint). Decisions: review.ts.

const reviewed = {
  refuse_reason: z.string().nullable(),
  /** When the clock approves it if nobody decides first (REVIEW_DELAY_MS after it was submitted). */
  review_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
}

export const schemas = {
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
        const templates = store.templates.ids(appKey).flatMap(id => store.templates.get(appKey, id) ?? [])
        return { templates: templates.map(templateItem) }
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
        const signs = store.signs.ids(appKey).flatMap(id => store.signs.get(appKey, id) ?? [])
        return {
          signs: signs.map(s => signItem(s, store.signs.usedByMessages(appKey, s.signId))),
        }
      },
    }),
  ]
}
