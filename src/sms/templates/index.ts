import type { Feature } from '../../http/feature.js'
import { dueReviewResults, dueReviews } from './due.js'
import { reviewRoutes } from './review.js'
import { smsReviewableRoutes } from './reviewables.js'
import { createTemplateStore } from './table.js'
import { templateRoutes } from './templates.js'

// SMS templates (jsms-api.md §2.9) and the review of templates and signatures: the vendor's routes
// (templates.ts, rules.ts), the reviewer's desk of the control plane (review.ts, reviewables.ts),
// and the reviews' due work (due.ts: approved once REVIEW_DELAY_MS has passed, results called
// back). Its table: templates (table.ts); the review workflow it shares with signatures
// (reviews) is still in src/store/sms.

export { schemas as reviewSchemas } from './review.js'
export { schemas as reviewableSchemas } from './reviewables.js'

export const smsTemplates = {
  name: 'sms/templates',
  vendor: { sms: [templateRoutes] },
  sandbox: [reviewRoutes, smsReviewableRoutes],
  due: { decide: [dueReviews], announce: [dueReviewResults] },
  tables: engine => ({ templates: createTemplateStore(engine) }),
} satisfies Feature
