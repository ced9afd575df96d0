import type { Engine } from '../../store/engine/index.js'

/** 1 big picture, 2 large icon, 3 small icon (jpush-wire.md "Images"). */
export type ImageType = 1 | 2 | 3

/** One image of POST /v3/images/…: what each vendor channel adopted, by channel name. */
export interface PushImage {
  mediaId: string
  appKey: string
  imageType: ImageType
  source: 'url' | 'file'
  imageUrl: string | null
  /** `jiguang`, `huawei`, `oppo`… → what that channel adopted. */
  channels: Record<string, ChannelImage>
  createdAt: number
  updatedAt: number
  expiresAt: number
}

/** What one channel adopted: the value the API answers, and what it was made from. */
export interface ChannelImage {
  /** The address, or the vendor's own id (OPPO answers an id of its image store). */
  value: string
  /** The address given, or `file:<name>` for an uploaded file. */
  from: string
}

/** An uploaded file of /v3/images/byfiles (a part such as `oppo_file`). */
export interface PushImageFile {
  mediaId: string
  channel: string
  fileName: string
  contentType: string
  width: number | null
  height: number | null
  bytes: Buffer
  uploadedAt: number
}

/** A file without its bytes: what listings show. */
export type PushImageFileInfo = Omit<PushImageFile, 'bytes'> & { size: number }

interface Row {
  media_id: string
  app_key: string
  image_type: number
  source: string
  image_url: string | null
  channels: string
  created_at: number
  updated_at: number
  expires_at: number
}

interface FileRow {
  media_id: string
  channel: string
  file_name: string
  content_type: string
  width: number | null
  height: number | null
  size: number
  uploaded_at: number
}

const toImage = (r: Row): PushImage => ({
  mediaId: r.media_id,
  appKey: r.app_key,
  imageType: r.image_type as ImageType,
  source: r.source as PushImage['source'],
  imageUrl: r.image_url,
  channels: JSON.parse(r.channels),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  expiresAt: r.expires_at,
})

const toFileInfo = (r: FileRow): PushImageFileInfo => ({
  mediaId: r.media_id,
  channel: r.channel,
  fileName: r.file_name,
  contentType: r.content_type,
  width: r.width,
  height: r.height,
  size: r.size,
  uploadedAt: r.uploaded_at,
})

const FILE_INFO =
  'media_id, channel, file_name, content_type, width, height, length(bytes) AS size, uploaded_at'

/**
 * The images of the image API, per app. An image past its time is gone for every read (`now` is
 * the app's): a push naming it is refused, the control plane no longer lists it.
 */
export function createPushImageStore({ db }: Engine) {
  const insert = db.prepare(
    `INSERT INTO push_images (media_id, app_key, image_type, source, image_url, channels, created_at, updated_at, expires_at)
     VALUES (@mediaId, @appKey, @imageType, @source, @imageUrl, @channels, @createdAt, @updatedAt, @expiresAt)`,
  )
  const update = db.prepare(
    `UPDATE push_images SET source = @source, image_url = @imageUrl, channels = @channels, updated_at = @updatedAt,
       expires_at = @expiresAt WHERE app_key = @appKey AND media_id = @mediaId`,
  )
  const get = db.prepare<{ appKey: string; mediaId: string; now: number }, Row>(
    'SELECT * FROM push_images WHERE app_key = @appKey AND media_id = @mediaId AND expires_at > @now',
  )
  const count = db.prepare<{ appKey: string; now: number }, { n: number }>(
    'SELECT count(*) AS n FROM push_images WHERE app_key = @appKey AND expires_at > @now',
  )
  const list = db.prepare<{ appKey: string; now: number }, Row>(
    'SELECT * FROM push_images WHERE app_key = @appKey AND expires_at > @now ORDER BY created_at, rowid',
  )
  const saveFile = db.prepare(
    `INSERT INTO push_image_files (media_id, channel, file_name, content_type, width, height, bytes, uploaded_at)
     VALUES (@mediaId, @channel, @fileName, @contentType, @width, @height, @bytes, @uploadedAt)
     ON CONFLICT (media_id, channel) DO UPDATE SET file_name = excluded.file_name,
       content_type = excluded.content_type, width = excluded.width, height = excluded.height,
       bytes = excluded.bytes, uploaded_at = excluded.uploaded_at`,
  )
  const files = db.prepare<[string], FileRow>(
    `SELECT ${FILE_INFO} FROM push_image_files WHERE media_id = ? ORDER BY channel`,
  )
  const file = db.prepare<{ mediaId: string; channel: string }, FileRow & { bytes: Buffer }>(
    `SELECT ${FILE_INFO}, bytes FROM push_image_files WHERE media_id = @mediaId AND channel = @channel`,
  )

  return {
    insert(image: PushImage): void {
      insert.run({ ...image, channels: JSON.stringify(image.channels) })
    },
    /** A new address set (PUT), kept another 30 days from now. */
    update(image: PushImage): void {
      update.run({ ...image, channels: JSON.stringify(image.channels) })
    },
    get(appKey: string, mediaId: string, now: number): PushImage | undefined {
      const row = get.get({ appKey, mediaId, now })
      return row && toImage(row)
    },
    /** The app's images still kept, oldest first. */
    list(appKey: string, now: number): PushImage[] {
      return list.all({ appKey, now }).map(toImage)
    },
    count(appKey: string, now: number): number {
      return count.get({ appKey, now })?.n ?? 0
    },
    /** Keeps an uploaded file, replacing the channel's earlier one. */
    saveFile(f: PushImageFile): void {
      saveFile.run(f)
    },
    files(mediaId: string): PushImageFileInfo[] {
      return files.all(mediaId).map(toFileInfo)
    },
    file(mediaId: string, channel: string): PushImageFile | undefined {
      const row = file.get({ mediaId, channel })
      if (!row) return undefined
      const { size: _, ...info } = toFileInfo(row)
      return { ...info, bytes: row.bytes }
    },
  }
}

declare module '../../store/index.js' {
  interface Tables {
    /** The images of the image API and what each channel adopted (docs/jpush-wire.md "Images"). */
    pushImages: ReturnType<typeof createPushImageStore>
  }
}
