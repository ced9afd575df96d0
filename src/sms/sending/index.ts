import type { Feature } from '../../http/feature.js'
import { codeRoutes } from './codes.js'
import { messageRoutes } from './messages.js'

// Sending (jsms-api.md §2.1–§2.5): verification codes (codes.ts), template and voice messages and
// batches (messages.ts), over the one send pipeline (send.ts) that scheduled tasks and the push
// SMS fallback send through too. Its rows (messages, codes) are still in src/store/sms.

export {
  failedRecipient,
  type RecipientFailure,
  readRecipient,
  recipientFailure,
} from './messages.js'
export * from './send.js'

export const smsSending = {
  name: 'sms/sending',
  vendor: { sms: [codeRoutes, messageRoutes] },
} satisfies Feature
