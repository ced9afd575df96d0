import type { Engine } from '../../store/engine/index.js'
import { createReviewable, REVIEWS_DUE, type ReviewStatus } from '../reviews/index.js'

export interface Sign {
  appKey: string
  signId: number
  sign: string
  type: number | null
  remark: string
  images: number
  status: ReviewStatus
  isDefault: boolean
  refuseReason: string | null
  reviewAt: number | null
  createdAt: number
  updatedAt: number
}

interface Row {
  app_key: string
  sign_id: number
  sign: string
  type: number | null
  remark: string
  images: number
  status: number
  is_default: number
  refuse_reason: string | null
  review_at: number | null
  created_at: number
  updated_at: number
}

const toSign = (r: Row): Sign => ({
  appKey: r.app_key,
  signId: r.sign_id,
  sign: r.sign,
  type: r.type,
  remark: r.remark,
  images: r.images,
  status: r.status as ReviewStatus,
  isDefault: r.is_default === 1,
  refuseReason: r.refuse_reason,
  reviewAt: r.review_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
})

export type SignInput = Pick<Sign, 'sign' | 'type' | 'remark' | 'images'>

export function createSignStore(engine: Engine) {
  const { db, writes } = engine
  // Every send reads its signature (or the default): answered from memory (sms/reviews/table.ts)
  // until a statement below changes the app's signatures and forgets them (declared with it:
  // engine/statements.ts). A decision may make one the default (promote).
  const review = createReviewable<Row>(engine, { table: 'signs', id: 'sign_id', kind: 'sign' }, appKey => {
    promote.run({ appKey })
  })
  const { memo } = review
  const get = db.prepare<[string, number], Row>('SELECT * FROM signs WHERE app_key = ? AND sign_id = ?')
  // For the desk's list (GET /_sandbox/sms/signs): each row then read by `get`, from its cache.
  const ids = db.prepare<[string], { id: number }>(
    'SELECT sign_id AS id FROM signs WHERE app_key = ? ORDER BY sign_id',
  )
  const getDefault = db.prepare<[string], Row>(
    'SELECT * FROM signs WHERE app_key = ? AND is_default = 1 ORDER BY sign_id LIMIT 1',
  )
  const pendingOther = db.prepare<[string, number], Row>(
    'SELECT * FROM signs WHERE app_key = ? AND status = 0 AND sign_id <> ? LIMIT 1',
  )
  const insert = writes<
    Omit<Sign, 'createdAt' | 'updatedAt' | 'isDefault'> & { isDefault: number; now: number }
  >(
    `INSERT INTO signs (app_key, sign_id, sign, type, remark, images, status, is_default, refuse_reason,
       review_at, created_at, updated_at)
     VALUES (@appKey, @signId, @sign, @type, @remark, @images, @status, @isDefault, @refuseReason, @reviewAt,
       @now, @now)`,
    { forgets: [memo], due: { query: REVIEWS_DUE.signs, at: s => s.reviewAt } },
  )
  const update = writes<SignInput & { appKey: string; signId: number; reviewAt: number; now: number }>(
    `UPDATE signs SET sign = @sign, type = @type, remark = @remark, images = @images, status = 0,
       refuse_reason = NULL, review_at = @reviewAt, updated_at = @now
     WHERE app_key = @appKey AND sign_id = @signId`,
    { forgets: [memo], due: { query: REVIEWS_DUE.signs, at: s => s.reviewAt } },
  )
  const remove = writes<[appKey: string, signId: number]>(
    'DELETE FROM signs WHERE app_key = ? AND sign_id = ?',
    {
      key: ([appKey]) => appKey,
      forgets: [memo],
    },
  )
  const usedBy = db.prepare<[string, number], { used: number }>(
    'SELECT EXISTS (SELECT 1 FROM messages WHERE app_key = ? AND sign_id = ?) AS used',
  )
  // The first approved signature of an app becomes its default, as in the console.
  const promote = writes<{ appKey: string }>(
    `UPDATE signs SET is_default = 1 WHERE app_key = @appKey AND sign_id = (
       SELECT sign_id FROM signs WHERE app_key = @appKey AND status = 1 ORDER BY sign_id LIMIT 1)
     AND NOT EXISTS (SELECT 1 FROM signs WHERE app_key = @appKey AND is_default = 1)`,
    { forgets: [memo] },
  )
  const loadSign = (appKey: string, signId: number): Sign | null => {
    const row = get.get(appKey, signId)
    return row ? toSign(row) : null
  }
  const loadDefault = (appKey: string): Sign | null => {
    const row = getDefault.get(appKey)
    return row ? toSign(row) : null
  }

  return {
    /** Frozen and shared: copy to change. */
    get(appKey: string, signId: number): Sign | undefined {
      return memo.read(appKey, signId, loadSign) ?? undefined
    },
    getDefault(appKey: string): Sign | undefined {
      return memo.read(appKey, 'default', loadDefault) ?? undefined
    },
    /** A signature of the app under review, other than `except` (none: -1). */
    pendingOther(appKey: string, except: number): Sign | undefined {
      const row = pendingOther.get(appKey, except)
      return row && toSign(row)
    },
    insert(s: Omit<Sign, 'createdAt' | 'updatedAt'>, now: number): void {
      insert.run({ ...s, isDefault: s.isDefault ? 1 : 0, now })
    },
    update(appKey: string, signId: number, input: SignInput, reviewAt: number, now: number): void {
      update.run({ appKey, signId, ...input, reviewAt, now })
    },
    remove(appKey: string, signId: number): boolean {
      return remove.run([appKey, signId]).changes === 1
    },
    /** The app's sign_ids, in order. */
    ids(appKey: string): number[] {
      return ids.all(appKey).map(r => r.id)
    },
    /** Whether any message of the app went out under this signature. */
    usedByMessages(appKey: string, signId: number): boolean {
      return usedBy.get(appKey, signId)?.used === 1
    },
    decide: review.decide,
    /** Approves every review of the app whose time has come; returns what it approved. */
    settleReviews(appKey: string, now: number): Sign[] {
      return review.settleReviews(appKey, now).map(toSign)
    },
  }
}

declare module '../../store/index.js' {
  interface Tables {
    /** SMS signatures, reviewed; the app's default (store.signs). */
    signs: ReturnType<typeof createSignStore>
  }
}
