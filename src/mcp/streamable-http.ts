import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { OperatorCredentials } from '../http/auth/operator.js'
import { injectFetch } from './inject-fetch.js'
import { createMcpServer } from './server.js'
import { type Credentials, createSession } from './session.js'

// One POST of /_sandbox/mcp (http.ts says what it is): a server for the caller's credentials,
// answering the one message it carries through the SDK's web-standard transport, then closed.

/** The headers the MCP transport reads (the rest of the request is the app's, not the SDK's). */
const MCP_HEADERS = ['accept', 'content-type', 'mcp-protocol-version', 'mcp-session-id', 'last-event-id']

export async function answerMcp(
  req: FastifyRequest,
  reply: FastifyReply,
  operator: OperatorCredentials | undefined,
): Promise<FastifyReply> {
  const baseUrl = `${req.protocol}://${req.host}`
  // A client that hangs up ends what its tools still hold (a wait_for_… held by wait=).
  const gone = new AbortController()
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) gone.abort()
  })
  const session = createSession({
    baseUrl,
    credentials: credentialsOf(req, operator),
    fetch: injectFetch(req.server, { remoteAddress: req.ip, signal: gone.signal }),
  })
  const server = createMcpServer(session)
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  })
  await server.connect(transport)
  try {
    const headers = new Headers()
    for (const name of MCP_HEADERS) {
      const value = req.headers[name]
      if (typeof value === 'string') headers.set(name, value)
    }
    const answer = await transport.handleRequest(
      new Request(`${baseUrl}${req.url}`, { method: 'POST', headers }),
      {
        parsedBody: req.body,
      },
    )
    reply.code(answer.status)
    answer.headers.forEach((value, name) => {
      reply.header(name, value)
    })
    return reply.send(answer.body === null ? undefined : await answer.text())
  } finally {
    await server.close()
  }
}

/** The caller's own credentials, which authenticated this request (auth.ts): the tools carry them. */
function credentialsOf(req: FastifyRequest, operator: OperatorCredentials | undefined): Credentials {
  if (req.operator && operator)
    return {
      kind: 'operator',
      ...operator,
      defaultApp: (req.tenant as typeof req.tenant | undefined)?.app.appKey,
    }
  const { appKey, masterSecret } = req.tenant.app
  return { kind: 'app', appKey, masterSecret }
}
