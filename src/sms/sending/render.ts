import { smsErrors } from '../errors.js'
import { charCount, SMS_LIMITS } from '../limits.js'

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g
// The vendor's signature marks; no parameter or template may contain them (50052, 50054).
export const SIGNATURE_MARKS = /[【】]/

// Every send of a template parses the same text: its placeholders are remembered (bounded).
const parsed = new Map<string, readonly string[]>()

/** The distinct `{{name}}` placeholders of a template, in order. */
export function placeholders(template: string): readonly string[] {
  let names = parsed.get(template)
  if (!names) {
    names = [...new Set([...template.matchAll(PLACEHOLDER)].map(m => m[1]!))]
    if (parsed.size >= 10_000) parsed.clear()
    parsed.set(template, names)
  }
  return names
}

/** Fills a template, enforcing the parameter rules (50022, 50023, 50054). */
export function fillTemplate(template: string, para: Record<string, string>): string {
  const names = placeholders(template)
  if (names.length > 0 && Object.keys(para).length === 0) throw smsErrors.parametersIsEmpty()
  for (const name of names) {
    const value = para[name]
    if (value === undefined) throw smsErrors.parametersNotAllReplaced()
    if (value.trim() === '') throw smsErrors.parametersIsEmpty()
    if (SIGNATURE_MARKS.test(value)) throw smsErrors.contentContainsSpecialSymbol()
  }
  return template.replace(PLACEHOLDER, (_m, name: string) => para[name] ?? '')
}

/** The text as the handset shows it: the signature in its marks, then the body. */
export function signed(sign: string, body: string): string {
  return `【${sign}】${body}`
}

/**
 * Final checks on a rendered text: length (50038) and sensitive words (50037). `sensitiveWords`
 * are compared case-insensitively: pass them lower-cased (sensitiveWordsOf in send.ts does).
 */
export function checkContent(content: string, sensitiveWords: readonly string[]): void {
  if (charCount(content) > SMS_LIMITS.maxContentLength) throw smsErrors.invalidContentLength()
  const lower = content.toLowerCase()
  for (const w of sensitiveWords) if (lower.includes(w)) throw smsErrors.hasBlackWord()
}
