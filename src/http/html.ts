import type { FastifyReply } from 'fastify'

// Every HTML page the sandbox serves (the web UI, the API docs) is never shown inside another
// site's frame: a page framed by another origin can be clicked through without the person seeing
// it (clickjacking), and a click here resets an app or arms a fault. Both headers: CSP's
// `frame-ancestors` where it is understood, X-Frame-Options for the browsers before it.

/** The directive each HTML page's Content-Security-Policy ends with. */
export const NO_FRAMING = "frame-ancestors 'none'"

/** An HTML page's answer: its policy (`csp`, without framing: added here), never framed, never sniffed. */
export function htmlPage(reply: FastifyReply, csp: string): FastifyReply {
  return reply
    .header('content-security-policy', `${csp}; ${NO_FRAMING}`)
    .header('x-frame-options', 'DENY')
    .header('x-content-type-options', 'nosniff')
}
