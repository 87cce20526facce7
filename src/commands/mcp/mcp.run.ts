import type { Context } from '../../context.js';
import type { OptionsOf } from '../../command.js';
import type { mcp } from './mcp.js';
import type { HttpClient } from '../../api/http.js';
import { errorDocument } from '../../output/render-error.js';
import { jsonText } from '../../output/sanitize.js';
import { packageVersion } from '../../version.js';
import { LosslessNumber } from '../../json/lossless-number.js';
import { callTool, toolsFor, type ToolEnv } from '../../mcp/tools.js';

export type McpOptions = OptionsOf<typeof mcp>;

/**
 * A result as plain JSON for structuredContent: a number the API sent with
 * more digits than a double holds becomes the nearest double here (the text
 * content keeps the digits as sent).
 */
function structured(result: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(result, (_k, v: unknown) => (v instanceof LosslessNumber ? Number(v.source) : v))) as Record<string, unknown>;
}

/**
 * Serves the tools over stdio until the client closes stdin (or Ctrl-C).
 * stdout carries only the protocol; the log goes to stderr. A failed call is
 * a tool error with partner's error document, its text redacted: the token
 * never reaches the client.
 */
export async function run(opts: McpOptions, ctx: Context): Promise<void> {
  const { Server } = await import('@modelcontextprotocol/sdk/server/index.js');
  const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
  const { CallToolRequestSchema, ListToolsRequestSchema } = await import('@modelcontextprotocol/sdk/types.js');
  const server = new Server({ name: 'partner', version: packageVersion() }, { capabilities: { tools: {} } });
  const tools = toolsFor(opts.allowWrite, opts.tools);
  let client: Promise<HttpClient> | undefined;
  // One client for the session; its retries are told to the latest call (a page walk lowers its concurrency on 429/503).
  let current: ToolEnv | undefined;
  const http = () => (client ??= ctx.http({ connections: 5, onRetry: (e) => current?.onRetry?.(e) }));
  const redact = async (text: string) => (client ? (await client.catch(() => undefined))?.redactText(text) ?? text : text);

  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: tools.map(({ name, description, inputSchema, outputSchema, annotations }) => ({ name, title: annotations.title, description, inputSchema, outputSchema, annotations })) }));
  server.setRequestHandler(CallToolRequestSchema, async (req, extra) => {
    const signal = AbortSignal.any([ctx.signal, extra.signal]);
    try {
      const env: ToolEnv & { allowWrite: boolean; tools: typeof tools } = { ctx, http, reveal: opts.reveal, signal, allowWrite: opts.allowWrite, tools };
      current = env;
      const result = await callTool(req.params.name, req.params.arguments, env).finally(() => {
        if (current === env) current = undefined;
      });
      const text = jsonText(result, 2);
      // The same document as the text, for clients that read structuredContent (validated against the tool's outputSchema).
      return { content: [{ type: 'text' as const, text }], structuredContent: structured(result) };
    } catch (err) {
      ctx.log.debug(`tool ${req.params.name} failed: ${(err as Error).message}`);
      const text = await redact(jsonText(errorDocument(err), 2));
      return { content: [{ type: 'text' as const, text }], isError: true };
    }
  });

  const transport = new StdioServerTransport(ctx.io.stdin, ctx.io.stdout);
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    ctx.io.stdin.once('end', () => resolve());
    ctx.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await server.connect(transport);
  // On stderr, which MCP hosts keep as the server's log.
  ctx.log.info(`partner MCP server on stdio: ${tools.length} tools${opts.allowWrite ? ' (write tools on: they send only with confirm: true)' : ''}${opts.reveal ? '; bank numbers and secret values shown in full (--reveal)' : ''}. Stops when stdin closes.`);
  await closed;
  await server.close().catch(() => undefined);
}
