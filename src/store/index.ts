import { createAppStore } from './apps.js'
import { createCallbackStore } from './callbacks.js'
import { createCodeStore } from './codes.js'
import type { Db } from './db.js'
import { createMessageStore } from './messages.js'
import { createPushDeviceStore } from './push-devices.js'
import { createPushMessageStore } from './push-messages.js'
import { createReplyStore } from './replies.js'
import { createReportStore } from './reports.js'
import { createReviewStore } from './reviews.js'
import { createScheduleStore } from './schedules.js'
import { createSequences } from './sequences.js'
import { createSignStore } from './signs.js'
import { createTemplateStore } from './templates.js'
import { createUnsubscribedStore } from './unsubscribed.js'
import { createWriter } from './writer.js'

/** Every table group behind one object; no SQL lives outside src/store. */
export function createStore(db: Db) {
  const writer = createWriter(db)
  return {
    db,
    apps: createAppStore(db),
    templates: createTemplateStore(db),
    signs: createSignStore(db),
    messages: createMessageStore(db),
    codes: createCodeStore(db),
    unsubscribed: createUnsubscribedStore(db),
    sequences: createSequences(db),
    pushDevices: createPushDeviceStore(db),
    pushes: createPushMessageStore(db),
    schedules: createScheduleStore(db),
    reports: createReportStore(db),
    replies: createReplyStore(db),
    callbacks: createCallbackStore(db),
    reviews: createReviewStore(db),
    /** Group-committed write: see writer.ts. */
    write: writer.write,
    flush: writer.flush,
    /** An immediate synchronous transaction, for rare writes outside the request path. */
    transaction<T>(fn: () => T): T {
      return db.transaction(fn)()
    },
  }
}

export type Store = ReturnType<typeof createStore>
