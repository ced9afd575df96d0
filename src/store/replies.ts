import type { Db } from './db.js'

export interface Reply {
  id: number
  appKey: string
  mobile: string
  content: string
  replyAt: number
}

interface Row {
  id: number
  app_key: string
  mobile: string
  content: string
  reply_at: number
}

const toReply = (r: Row): Reply => ({
  id: r.id,
  appKey: r.app_key,
  mobile: r.mobile,
  content: r.content,
  replyAt: r.reply_at,
})

/** Uplink (MO) replies, handed out once each by GET /v1/reply. */
export function createReplyStore(db: Db) {
  const insert = db.prepare<{ appKey: string; mobile: string; content: string; replyAt: number }, Row>(
    `INSERT INTO replies (app_key, mobile, content, reply_at) VALUES (@appKey, @mobile, @content, @replyAt)
     RETURNING *`,
  )
  const pull = db.prepare<{ appKey: string; now: number; since: number; limit: number }, Row>(
    `UPDATE replies SET pulled_at = @now WHERE id IN (
       SELECT id FROM replies WHERE app_key = @appKey AND pulled_at IS NULL
         AND reply_at <= @now AND reply_at > @since
       ORDER BY reply_at, id LIMIT @limit)
     RETURNING *`,
  )
  return {
    insert(r: Omit<Reply, 'id'>): Reply {
      return toReply(insert.get(r)!)
    },
    pull(appKey: string, now: number, since: number, limit: number): Reply[] {
      return pull
        .all({ appKey, now, since, limit })
        .map(toReply)
        .sort((a, b) => a.replyAt - b.replyAt || a.id - b.id)
    },
  }
}
