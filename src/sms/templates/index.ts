import type { Feature } from '../../http/feature.js'
import { reviewRoutes } from './review.js'
import { smsReviewableRoutes } from './reviewables.js'
import { createTemplateStore } from './table.js'
import { templateRoutes } from './templates.js'

// SMS templates (jsms-api.md §2.9) and the reviewer's desk of templates and signatures: the
// vendor's routes (templates.ts, rules.ts) and the control plane's desk (review.ts, reviewables.ts:
// here, as the desk shows signatures too, and sms/signs cannot import the review from where it
// is shown). Its table: templates (table.ts), with its ids for the desk's list; the review
// workflow it shares with signatures, and its due work, are sms/reviews'.

export { schemas as reviewSchemas } from './review.js'
export { schemas as reviewableSchemas } from './reviewables.js'

export const smsTemplates = {
  name: 'sms/templates',
  vendor: { sms: [templateRoutes] },
  sandbox: [reviewRoutes, smsReviewableRoutes],
  tables: engine => ({ templates: createTemplateStore(engine) }),
} satisfies Feature
