import type { Feature } from '../../http/feature.js'
import { reviewRoutes } from './review.js'
import { smsReviewableRoutes } from './reviewables.js'
import { createTemplateStore } from './table.js'
import { templateRoutes } from './templates.js'

// SMS templates (jsms-api.md §2.9), and the reviewer's desk of templates and signatures: the
// vendor's routes (templates.ts, rules.ts) and the control plane's desk (review.ts, reviewables.ts;
// here because the desk shows signatures too, and sms/templates imports sms/signs, never the
// reverse). Its table: templates (table.ts, with the ids the desk lists). The review workflow it
// shares with signatures, and the reviews' due work, are sms/reviews'.

export { schemas as reviewSchemas } from './review.js'
export { schemas as reviewableSchemas } from './reviewables.js'

export const smsTemplates = {
  name: 'sms/templates',
  vendor: { sms: [templateRoutes] },
  sandbox: [reviewRoutes, smsReviewableRoutes],
  tables: engine => ({ templates: createTemplateStore(engine) }),
} satisfies Feature
