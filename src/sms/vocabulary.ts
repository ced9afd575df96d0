import { z } from 'zod'

// The JSMS fields as the vendor documents them (jsms-api.md §2), for the OpenAPI document only:
// the readers in sms/fields.ts decide what is accepted (numbers as strings, `+86` prefixes…).

export const mobile = z
  .string()
  .describe(
    'Mainland mobile: 11 digits starting 13–19, optionally prefixed 86 or +86 (a JSON number is read too).',
  )
export const tempId = z.int().describe('Template id (a numeric string is read too).')
export const signId = z.int().describe("Signature id; absent: the app's default signature.")
export const tempPara = z
  .record(z.string(), z.string())
  .describe('Values for the `{{name}}` placeholders of the template (numbers are read as their text).')
export const msgIdAnswer = z.object({ msg_id: z.string().describe('The message id, digits as a string.') })

/** A batch recipient refused alone (jsms-api.md §2.5): `error_code` is a string. */
export const failedRecipient = z.object({
  error_code: z.string(),
  error_message: z.string(),
  mobile: z.string(),
  temp_para: z.record(z.string(), z.string()),
})

export const recipients = z
  .array(z.object({ mobile, temp_para: tempPara.optional() }))
  .describe('1–1000 recipients; a mobile repeated in the batch is refused alone (50034).')

/** `yyyy-MM-dd HH:mm:ss` in SMS_TIME_ZONE (Beijing time by default). */
export const sendTime = z
  .string()
  .describe('`yyyy-MM-dd HH:mm:ss` in SMS_TIME_ZONE (Beijing time by default), later than the app clock.')
