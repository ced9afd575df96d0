import type { Feature } from '../../http/feature.js'
import { dueReviewResults, dueReviews } from './due.js'
import { createReviewStore } from './table.js'

// The one review workflow of templates and signatures (jsms-api.md §2.9, §2.10): a row submitted
// under review is approved once REVIEW_DELAY_MS has passed or decided at once by the reviewer's
// desk, each decision recorded for the SMS_TEMPLATE/SMS_SIGN callbacks. Its table module (table.ts)
// holds the review_events table, the reviews' due queries and `createReviewable`, the statements
// each reviewed table (sms/templates, sms/signs) makes over its own rows; its due work (due.ts):
// the reviews approved when due, their results called back. It imports neither feature: both
// import it, and sms/templates imports sms/signs (the desk, sms/templates/review.ts, shows both).

export { reviewDecision } from './due.js'
export { createReviewable, REVIEWS_DUE, type ReviewStatus } from './table.js'

export const smsReviews = {
  name: 'sms/reviews',
  due: { decide: [dueReviews], announce: [dueReviewResults] },
  tables: engine => ({ reviews: createReviewStore(engine) }),
} satisfies Feature
