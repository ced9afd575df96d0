import type { FastifyReply, FastifyRequest } from 'fastify'
import { z } from 'zod'
import type { OperatorCredentials } from '../http/auth/operator.js'
import type { RouteSpec } from '../http/routes.js'

// POST /_sandbox/mcp: the MCP server over Streamable HTTP, on the sandbox itself, behind the control
// plane's credentials — an app's see that app; the operator's see any app each call names (or the
// one X-Sandbox-App names, for calls that name none). Stateless: each POST is answered by a server
// of its own, in JSON (no session, no stream held open: a GET is the surface's 405). Its tools
// call the control plane through the app's own routes (inject-fetch.ts) with the caller's
// credentials and address, so authorization and the bounds on held requests (`wait=`) are the
// control plane's own. The MCP SDK is loaded on the first call, not at start.

/** Up to what POST /_sandbox/app/import takes (sandbox/app/transfer.ts): import_app carries a document. */
const MCP_BODY_LIMIT = 256 * 1024 * 1024

const DESCRIPTION = `The sandbox's tools for a coding agent (docs/agents.md), as a Model Context Protocol server over
Streamable HTTP, stateless: each POST carries one JSON-RPC message (initialize, tools/list, tools/call,
resources/read, prompts/get…) and is answered in JSON. An app's credentials act on that app; the
operator's on the app each tool call names in \`app_key\` (or the one \`X-Sandbox-App\` names). The
tools call the control plane with the same credentials: what it refuses, they refuse. Its own
requests are not journaled; the writes its tools make are.`

/** A JSON-RPC message, as the OpenAPI document shows it (the MCP SDK reads it). */
const message = z
  .object({
    jsonrpc: z.literal('2.0'),
    id: z.union([z.string(), z.number()]).optional(),
    method: z.string().optional(),
    params: z.record(z.string(), z.unknown()).optional(),
  })
  .loose()

export function mcpRoutes(deps: { config: { operator: OperatorCredentials | undefined } }): RouteSpec[] {
  return [
    {
      method: 'POST',
      url: '/mcp',
      bodyLimit: MCP_BODY_LIMIT,
      // The calls its tools make are journaled (the writes); the envelope around them would be noise.
      config: { auth: 'app-or-operator', journal: false },
      docs: {
        summary: 'The MCP server (Streamable HTTP): the sandbox’s tools for a coding agent',
        description: DESCRIPTION,
        body: message,
        answers: {
          200: {
            description: 'The JSON-RPC answer (202, empty: a notification).',
            media: 'application/json',
          },
        },
      },
      handler: async (req: FastifyRequest, reply: FastifyReply) => {
        const { answerMcp } = await import('./streamable-http.js')
        return answerMcp(req, reply, deps.config.operator)
      },
    },
  ]
}
