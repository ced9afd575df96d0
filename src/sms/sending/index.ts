import type { Feature } from '../../http/feature.js'
import { codeRoutes } from './codes.js'
import { createCodeStore } from './codes-table.js'
import { messageSource } from './items.js'
import { messageRoutes } from './messages.js'
import { createMessageStore } from './messages-table.js'
import { smsInspectRoutes } from './sandbox.js'

// Sending (jsms-api.md §2.1–§2.5): verification codes (codes.ts), template and voice messages and
// batches (messages.ts), over the one send pipeline (send.ts) that scheduled tasks and the push
// SMS fallback send through too; what the control plane shows of it: the texts that went out and
// the codes in them (sandbox.ts), as their items (items.ts), which the event stream carries too.
// Its tables: messages (messages-table.ts: each with its sms.sent seq, which the frequency windows
// count) and codes (codes-table.ts). A msg_id's key in them: ../msg-ids.ts, shared with reports.

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
  tables: engine => ({ messages: createMessageStore(engine), codes: createCodeStore(engine) }),
  stream: store => [messageSource(store)],
} satisfies Feature
