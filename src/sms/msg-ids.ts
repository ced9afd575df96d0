/**
 * An SMS msg_id is the rowid of `messages`, `reports` and `codes` (migration 012) and a string
 * everywhere else (the wire, the control plane, callbacks). The ids the sequence makes are
 * canonical decimals; anything else names no message, and becomes -1, which no row has.
 * Converting here, rather than letting SQLite compare a string with the integer column, keeps the
 * exact match of the TEXT key before: SQLite would take `0600000000001` or `600000000001.0` for
 * the same number.
 */
export function msgIdKey(msgId: string): number {
  if (!/^[1-9][0-9]{0,15}$/.test(msgId)) return -1
  const n = Number(msgId)
  return Number.isSafeInteger(n) ? n : -1
}

/** The wire's form of a stored msg_id. */
export const msgIdText = (key: number): string => String(key)

/** The key of an id this process made (the sequence's): anything else is a bug, not a 404. */
export function newMsgIdKey(msgId: string): number {
  const key = msgIdKey(msgId)
  if (key < 0) throw new Error(`not a msg_id: ${msgId}`)
  return key
}
