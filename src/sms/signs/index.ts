import type { Feature } from '../../http/feature.js'
import { signRoutes } from './signs.js'
import { createSignStore } from './table.js'

// SMS signatures (jsms-api.md §2.10): the vendor's multipart routes (signs.ts, form.ts). They are
// reviewed with templates (sms/reviews; the desk: sms/templates/review.ts); their table is table.ts.

export { SIGN_LIMITS } from './form.js'
export { signView } from './signs.js'

export const smsSigns = {
  name: 'sms/signs',
  vendor: { sms: [signRoutes] },
  tables: engine => ({ signs: createSignStore(engine) }),
} satisfies Feature
