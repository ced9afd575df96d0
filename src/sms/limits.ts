// The seed's limits (sms-service.md §8) as named constants.
export const SMS_LIMITS = {
  maxContentLength: 500,
  maxTemplateLength: 500,
  maxRemarkLength: 500,
  maxRecipients: 1000,
  maxTagLength: 10,
  maxTtlSeconds: 86_400,
  defaultCodeTtlSeconds: 300,
  defaultVoiceTtlSeconds: 60,
  voiceCodeMinDigits: 4,
  voiceCodeMaxDigits: 8,
  voiceIntervalMs: 20_000,
  codesPer24h: 200,
  notificationSameContentPer10Min: 3,
  notificationPerDay: 200,
  marketingPer10Min: 3,
  /** One SMS holds 70 characters; a longer text is split and billed per 67 (jsms-api.md §2.7). */
  singleSmsChars: 70,
  splitSmsChars: 67,
} as const

export const TEN_MINUTES = 10 * 60_000
export const ONE_DAY = 24 * 3600_000

/** How many SMS a text is billed as. Every character, CJK or Latin, counts as one. */
export function billedUnits(content: string): number {
  const length = charCount(content)
  return length <= SMS_LIMITS.singleSmsChars ? 1 : Math.ceil(length / SMS_LIMITS.splitSmsChars)
}

/** Characters as a handset counts them (code points, `[...s].length`), without the array. */
export function charCount(s: string): number {
  let n = s.length
  for (let i = 0; i < s.length - 1; i++) {
    const c = s.charCodeAt(i)
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1)
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--
        i++
      }
    }
  }
  return n
}
