import type { Engine } from '../../store/engine/index.js'
import { createLister, type ListWindow } from '../../store/engine/lister.js'

export interface Reply {
  id: number
  appKey: string
  mobile: string
  content: string
  replyAt: number
  /** Its sms.reply event. */
  seq: number
}

export type ReplyFilter = ListWindow & { mobile?: string }

interface Row {
  id: number
  app_key: string
  mobile: string
  content: string
  reply_at: number
  seq: number
}

const toReply = (r: Row): Reply => ({
  id: r.id,
  appKey: r.app_key,
  mobile: r.mobile,
  content: r.content,
  replyAt: r.reply_at,
  seq: r.seq,
})

/** Uplink (MO) replies, handed out once each by GET /v1/reply. */
export function createReplyStore({ db, writes, ids }: Engine) {
  // Its seq (the sms.reply event's) taken and bound by the engine.
  const insert = writes<
    { id: number; appKey: string; mobile: string; content: string; replyAt: number },
    Row
  >(
    `INSERT INTO replies (id, app_key, mobile, content, reply_at, seq)
     VALUES (@id, @appKey, @mobile, @content, @replyAt, @seq) RETURNING *`,
    { seq: 'replies' },
  )
  const list = createLister<'mobile', Row>(db, {
    columns: '*',
    from: 'replies',
    appKey: 'app_key',
    seq: 'seq',
    time: 'reply_at',
    filters: { mobile: 'mobile = @mobile' },
  })
  const pull = db.prepare<{ appKey: string; now: number; since: number; limit: number }, Row>(
    `UPDATE replies SET pulled_at = @now WHERE id IN (
       SELECT id FROM replies WHERE app_key = @appKey AND pulled_at IS NULL
         AND reply_at <= @now AND reply_at > @since
       ORDER BY reply_at, id LIMIT @limit)
     RETURNING *`,
  )
  return {
    insert(r: Omit<Reply, 'id' | 'seq'>): Reply {
      return toReply(insert.get({ ...r, id: ids.next('reply_id') })!)
    },
    /** Newest first. */
    list(appKey: string, filter: ReplyFilter): Reply[] {
      return list(appKey, filter).map(toReply)
    },
    pull(appKey: string, now: number, since: number, limit: number): Reply[] {
      return pull
        .all({ appKey, now, since, limit })
        .map(toReply)
        .sort((a, b) => a.replyAt - b.replyAt || a.id - b.id)
    },
  }
}

declare module '../../store/index.js' {
  interface Tables {
    /** Handsets' uplink replies, pulled once each or called back (store.replies). */
    replies: ReturnType<typeof createReplyStore>
  }
}
