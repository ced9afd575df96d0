import type { FastifyRequest } from 'fastify'
import { z } from 'zod'
import { type Form, readForm } from '../../http/body/multipart.js'
import { part } from '../../http/reads.js'
import { smsErrors } from '../errors.js'

// The multipart form of POST /v1/sign[/:sign_id] (jsms-api.md §2.10), as every official client
// writes it (http/body/multipart.ts), declared with what it takes and refuses.

/** The signature rules of jsms-api.md §2.10 as named constants. */
export const SIGN_LIMITS = {
  minLength: 2,
  maxLength: 8,
  maxRemarkLength: 100,
  maxImageBytes: 2 * 1024 * 1024,
  /** A whole form: four images and a few text parts fit easily. */
  maxBodyBytes: 10 * 1024 * 1024,
  /** Sanity bound on parts of each kind, so a hostile form cannot make us buffer thousands. */
  maxParts: 32,
} as const

/** What a signature create/modify form says; `undefined` is "not given". */
export interface SignForm {
  sign: string | undefined
  type: number | undefined
  remark: string | undefined
  /** How many qualification images came with it (their bytes are checked, not kept). */
  images: number
}

// jsms-api.md §2.10: 2–8 characters, Chinese, letters or digits only (so never 【】[]()).
const SIGN_TEXT = /^[\p{Script=Han}A-Za-z0-9]+$/u
// image0…image3 (docs, PHP, Python, C#) and `images` (Java, one part per file).
const IMAGE_FIELD = /^(?:image[0-3]|images)$/

const file = z.string().meta({ contentMediaType: 'application/octet-stream' })
const formSchema = z.object({
  sign: z.string().describe('2–8 characters: Chinese, letters, digits.'),
  type: z.int().min(1).max(7).describe('1 company … 7 other (jsms-api.md §3).').optional(),
  remark: z.string().max(SIGN_LIMITS.maxRemarkLength).optional(),
  image0: file.optional(),
  images: file.describe("The Java client's name for its images (one part per file).").optional(),
})

/** A new signature's form (its `sign` is required: 50104 without it, once the form is read). */
export const signForm = part({
  in: 'body',
  read: readSignForm,
  schema: formSchema,
  errors: [smsErrors.invalidSignature(), smsErrors.invalidImage()],
  media: 'multipart/form-data',
  limit: SIGN_LIMITS.maxBodyBytes,
})

/** A modification's form: what it leaves out keeps its value. */
export const signChanges = { ...signForm, schema: formSchema.partial() }

/** Reads the multipart body (415 50017 for anything else). */
async function readSignForm(req: FastifyRequest): Promise<SignForm> {
  const form = await readForm(
    req,
    {
      maxFileBytes: SIGN_LIMITS.maxImageBytes,
      maxFiles: SIGN_LIMITS.maxParts,
      maxFields: SIGN_LIMITS.maxParts,
    },
    {
      empty: () => smsErrors.missingBody(),
      notMultipart: () => smsErrors.mediaNotSupported(),
      // A form that cannot be read to its end (no closing boundary, even inside an image part) is
      // 50007 "invalid body" (sms-service.md §7: body invalid; jsms-api.md §4: unparsable body), not
      // 50101 "invalid image": 50101 judges an image that arrived whole, and here nothing did.
      unreadable: () => smsErrors.invalidBody(),
    },
  )
  return checkSignForm(form)
}

/** The first non-empty value of a text part: PHP sends every part, empty when not given. */
function text(form: Form, name: string): string | undefined {
  return form.fields.get(name)?.find(v => v !== '')
}

function checkSignForm(form: Form): SignForm {
  const sign = text(form, 'sign')
  if (sign !== undefined) {
    const length = [...sign].length
    if (length < SIGN_LIMITS.minLength || length > SIGN_LIMITS.maxLength || !SIGN_TEXT.test(sign)) {
      throw smsErrors.invalidSignature()
    }
  }
  // Everything in a form is text: a type that is not one of 1..7 makes the signature invalid.
  const rawType = text(form, 'type')?.trim()
  let type: number | undefined
  if (rawType !== undefined) {
    type = /^\d{1,2}$/.test(rawType) ? Number(rawType) : Number.NaN
    if (!(type >= 1 && type <= 7)) throw smsErrors.invalidSignature()
  }
  const remark = text(form, 'remark')
  if (remark !== undefined && [...remark].length > SIGN_LIMITS.maxRemarkLength)
    throw smsErrors.invalidSignature()
  let images = 0
  for (const file of form.files) {
    if (!IMAGE_FIELD.test(file.field)) continue
    // An empty file part with no name is a client's way of saying "no image".
    if (file.bytes.length === 0 && file.filename === '') continue
    if (file.truncated || !isImage(file.bytes)) throw smsErrors.invalidImage()
    images++
  }
  // A text part under an image name holds no file; only a non-empty one is a wrong image.
  for (const [name, values] of form.fields) {
    if (IMAGE_FIELD.test(name) && values.some(v => v !== '')) throw smsErrors.invalidImage()
  }
  return { sign, type, remark, images }
}

const MAGIC: Buffer[] = [
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), // PNG
  Buffer.from([0xff, 0xd8, 0xff]), // JPEG
  Buffer.from('GIF87a'),
  Buffer.from('GIF89a'),
  Buffer.from('BM'), // BMP
]

/** Judged by content, not by name or declared type: clients send application/octet-stream. */
function isImage(bytes: Buffer): boolean {
  return MAGIC.some(m => bytes.length > m.length && bytes.subarray(0, m.length).equals(m))
}
