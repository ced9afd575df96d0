// Mainland numbers as in every vendor example, optionally with the country code (86 or +86).
// The country code is dropped: one phone is one mobile for the frequency limits, repeat sends
// within a batch, unsubscriptions and the inspection endpoints, whatever notation came in.
const MOBILE = /^(?:\+?86)?(1[3-9]\d{9})$/

/** The national 11-digit form of a mobile, or undefined when it is not one. */
export function nationalMobile(text: string): string | undefined {
  return MOBILE.exec(text.trim())?.[1]
}
