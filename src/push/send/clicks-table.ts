import type { PushPlatform } from '../../device.js'
import type { Engine } from '../../store/engine/index.js'

/** What a device opened: the push's notification, or its message when it had none for the device. */
export type ClickKind = 'notification' | 'message'

/** A device opening a push it received (the control plane's "open a push"). */
export interface Click {
  msgId: string
  appKey: string
  registrationId: string
  platform: PushPlatform
  kind: ClickKind
  clickedAt: number
}

interface ClickRow {
  msg_id: string
  app_key: string
  registration_id: string
  platform: string
  kind: string
  clicked_at: number
}

const toClick = (r: ClickRow): Click => ({
  msgId: r.msg_id,
  appKey: r.app_key,
  registrationId: r.registration_id,
  platform: r.platform as PushPlatform,
  kind: r.kind as ClickKind,
  clickedAt: r.clicked_at,
})

/** Clicks per platform and kind of one push: what the report host counts. */
export interface ClickCount {
  platform: PushPlatform
  kind: ClickKind
  n: number
}

type Key = { appKey: string; msgId: string; rid: string }

/** Clicks, one per device and push (migration 010). */
export function createPushClickStore({ db }: Engine) {
  const insert = db.prepare(
    `INSERT INTO push_clicks (msg_id, app_key, registration_id, platform, kind, clicked_at)
     VALUES (@msgId, @appKey, @registrationId, @platform, @kind, @clickedAt)`,
  )
  const get = db.prepare<Key, ClickRow>(
    'SELECT * FROM push_clicks WHERE app_key = @appKey AND msg_id = @msgId AND registration_id = @rid',
  )
  const counts = db.prepare<{ appKey: string; msgId: string }, { platform: string; kind: string; n: number }>(
    `SELECT platform, kind, count(*) AS n FROM push_clicks WHERE app_key = @appKey AND msg_id = @msgId
     GROUP BY platform, kind`,
  )
  return {
    insert(c: Click): void {
      insert.run(c)
    },
    get(appKey: string, msgId: string, rid: string): Click | undefined {
      const row = get.get({ appKey, msgId, rid })
      return row && toClick(row)
    },
    countsOf(appKey: string, msgId: string): ClickCount[] {
      return counts.all({ appKey, msgId }).map(r => ({
        platform: r.platform as PushPlatform,
        kind: r.kind as ClickKind,
        n: r.n,
      }))
    },
  }
}

declare module '../../store/index.js' {
  interface Tables {
    /** Devices opening pushes they received (store.pushClicks). */
    pushClicks: ReturnType<typeof createPushClickStore>
  }
}
