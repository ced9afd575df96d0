import type { Feature } from '../../http/feature.js'
import { codeRoutes } from './codes.js'
import { createCodeStore } from './codes-table.js'
import { messageSource } from './items.js'
import { messageRoutes } from './messages.js'
import { smsInspectRoutes } from './sandbox.js'

// Sending (jsms-api.md §2.1–§2.5): verification codes (codes.ts), template and voice messages and
// batches (messages.ts), over the one send pipeline (send.ts) that scheduled tasks and the push
// SMS fallback send through too; what the control plane shows of it: the texts that went out and
// the codes in them (sandbox.ts), as their items (items.ts), which the event stream carries too.
// Its table: codes (codes-table.ts); messages are still in src/store/sms (the event stream reads them).

export { codeItem, messageItem, sendingItems } from './items.js'
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
  sandbox: [smsInspectRoutes],
  tables: engine => ({ codes: createCodeStore(engine) }),
  stream: store => [messageSource(store)],
} satisfies Feature
