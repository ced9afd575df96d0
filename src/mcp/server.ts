import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { SandboxError } from '../../client/src/errors.js'
import { NAME, VERSION } from '../package.js'
import { LLMS_TXT_URI, llmsTxt, manualPages, OPENAPI_URI, readPackageFile } from './library.js'
import { debugArgs, debugPrompt } from './prompts.js'
import { redactSecrets } from './redact.js'
import { ArgumentProblem, type Session } from './session.js'
import { TOOLS } from './tools/index.js'

// The MCP server of one session (whose credentials, which sandbox): the tools, the manual and the
// OpenAPI document as resources, the prompt that walks a failing test. The same for every
// transport: stdio (stdio.ts) and Streamable HTTP at /_sandbox/mcp (http.ts).

/** What an agent is told when it connects: what the sandbox is, and who the tools act as. */
function instructions(s: Session): string {
  const who = s.operator
    ? `The tools carry the operator's credentials: they see every app (list_apps), each call naming its app with app_key${s.defaultApp ? ` (${s.defaultApp} when none is named)` : ''}.`
    : `The tools carry the credentials of app ${s.defaultApp} and see that app only.`
  return [
    `jiguang-sandbox emulates the JSMS SMS REST API v1 and the JPush push REST API v3 at ${s.baseUrl} (${s.baseUrl}/v1, ${s.baseUrl}/v3).`,
    "Point the code under test (or the vendors' official SDKs) there with its app's appKey:masterSecret; any new well-formed appKey (24 letters or digits) is a new app of its own.",
    'Sends stay the code under test’s: these tools read what it sent (latest_code, list_texts, list_pushes, wait_for_…), say why a call was refused (explain_request), and steer what the real service decides (advance_clock, arm_fault, review_…, inject_reply, click_push).',
    who,
    `The manual: the resources (${LLMS_TXT_URI} first).`,
  ].join('\n')
}

/** What a failed call tells the agent: the control plane's refusal as it came, or why nothing came. */
export function describeFailure(err: unknown): string {
  if (err instanceof SandboxError || err instanceof ArgumentProblem) return err.message
  const cause = (err as { cause?: { code?: string; message?: string } }).cause
  if (err instanceof TypeError && cause)
    return `could not reach the sandbox (${cause.code ?? cause.message}): is it running? (npx jiguang-sandbox, or mcp --embedded)`
  return err instanceof Error ? err.message : String(err)
}

export function createMcpServer(session: Session): McpServer {
  const server = new McpServer(
    { name: NAME, title: 'jiguang-sandbox', version: VERSION },
    { instructions: instructions(session) },
  )

  for (const t of TOOLS) {
    if (t.operatorOnly && !session.operator) continue
    server.registerTool(
      t.name,
      {
        title: t.title,
        description: t.description,
        inputSchema: t.input,
        outputSchema: t.output,
        annotations: { title: t.title, openWorldHint: false, ...t.annotations },
      },
      async (args: Record<string, unknown>) => {
        try {
          const answer = redactSecrets(await t.run(session, args as never))
          return {
            content: [{ type: 'text' as const, text: t.text(answer, args as never) }],
            structuredContent: answer as Record<string, unknown>,
          }
        } catch (err) {
          return { isError: true, content: [{ type: 'text' as const, text: describeFailure(err) }] }
        }
      },
    )
  }

  server.registerResource(
    'llms.txt',
    LLMS_TXT_URI,
    {
      title: 'jiguang-sandbox for agents (llms.txt)',
      description:
        'Read first: what the sandbox is, how to point an SDK at it, the control plane’s most used calls.',
      mimeType: 'text/plain',
    },
    uri => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: llmsTxt() }] }),
  )
  for (const page of manualPages())
    server.registerResource(
      page.path,
      page.uri,
      { title: page.title, description: `The manual: ${page.path}`, mimeType: 'text/markdown' },
      uri => ({ contents: [{ uri: uri.href, mimeType: 'text/markdown', text: readPackageFile(page.path) }] }),
    )
  server.registerResource(
    'openapi.json',
    OPENAPI_URI,
    {
      title: 'OpenAPI 3.1 document',
      description: 'Every route of /v1, /v3 and /_sandbox: parameters, bodies, answers, error codes.',
      mimeType: 'application/json',
    },
    async uri => ({
      contents: [
        {
          uri: uri.href,
          mimeType: 'application/json',
          text: await (await session.http.open('GET', '/_sandbox/openapi.json')).text(),
        },
      ],
    }),
  )

  server.registerPrompt(
    'debug_failing_test',
    {
      title: 'Debug a failing SMS or push test',
      description:
        'What the sandbox knows about the app now (refusals with their reasons, armed faults, latest texts and pushes, the clock) and the order to look in.',
      argsSchema: debugArgs,
    },
    async args => ({
      messages: [{ role: 'user', content: { type: 'text', text: await debugPrompt(session, args) } }],
    }),
  )
  return server
}
