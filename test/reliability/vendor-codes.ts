import { readPage, section } from '../readme/pages.js'

// The codes each vendor documents, from the specification, not from the product: an answer whose
// code is not here is a finding. JSMS: sms-service.md §7 plus jsms-api.md §4 (50033).
const SMS = [
  50001, 50002, 50003, 50004, 50005, 50006, 50007, 50008, 50009, 50010, 50011, 50012, 50013, 50014, 50015,
  50016, 50017, 50018, 50019, 50020, 50021, 50022, 50023, 50024, 50025, 50026, 50027, 50028, 50029, 50030,
  50031, 50033, 50034, 50035, 50036, 50037, 50038, 50039, 50040, 50041, 50042, 50043, 50044, 50045, 50046,
  50047, 50051, 50052, 50053, 50054, 50101, 50102, 50103, 50104, 50105, 50201, 50202, 50301,
]
// JPush: push-service.md §7 and the tables of jpush-api.md (push §5.12, report §6.6, device §7,
// schedule §8).
const JPUSH = [
  1000, 1001, 1002, 1003, 1004, 1005, 1008, 1009, 1011, 1012, 1020, 1030, 1035, 2002, 2003, 2004, 2005, 2006,
  2007, 2008, 3001, 3002, 3004, 3005, 7000, 7001, 7002, 7004, 7008, 7013, 7015, 7030, 8000, 8100, 8101, 8104,
  8200, 8203,
]

// The control plane's own codes: the table its manual documents (docs/control-plane.md "Errors of
// the control plane"), whatever src/control/errors.ts says.
const SANDBOX = [
  ...section(readPage('docs/control-plane.md'), 'Errors of the control plane').matchAll(
    /^\| `(9\d{4})` \|/gm,
  ),
].map(m => Number(m[1]))

// What the MCP transport at /_sandbox/mcp refuses, as JSON-RPC errors (docs/agents.md "Errors"),
// besides the control plane's own refusals of its credentials and body.
const MCP = [...section(readPage('docs/agents.md'), 'Errors').matchAll(/^\| `(-32\d{3})` \|/gm)].map(m =>
  Number(m[1]),
)

export const SMS_CODES = new Set(SMS)
export const JPUSH_CODES = new Set(JPUSH)
export const SANDBOX_CODES = new Set(SANDBOX)

/** The codes an error under this path may carry; undefined outside the surfaces' prefixes. */
export function documentedCodes(path: string): Set<number> | undefined {
  if (path.startsWith('/v1')) return SMS_CODES
  if (path.startsWith('/v3')) return JPUSH_CODES
  if (/^\/+_sandbox\/+mcp\/*$/.test(path)) return new Set([...SANDBOX, ...MCP])
  if (path.startsWith('/_sandbox')) return SANDBOX_CODES
  return undefined
}
