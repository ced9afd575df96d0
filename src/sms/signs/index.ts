import type { Feature } from '../../http/feature.js'
import { signRoutes } from './signs.js'

// SMS signatures (jsms-api.md §2.10): the vendor's multipart routes (signs.ts, form.ts). They are
// reviewed with templates (sms/templates/review.ts); their rows are still in src/store/sms.

export { SIGN_LIMITS } from './form.js'
export { signView } from './signs.js'

export const smsSigns = {
  name: 'sms/signs',
  vendor: { sms: [signRoutes] },
} satisfies Feature
