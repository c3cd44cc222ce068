import { assertEquals } from "../../tests/helpers/assert.ts";
import { delimiter } from "node:path";
import { responseId } from "./relay.ts";
import { LineReader } from "../service/handshake.ts";
import { serviceEnv } from "./service_start.ts";
import { servicePath } from "../executables.ts";

const line = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

Deno.test("responseId: ids of answers as the SDK writes them, null for the service's requests", () => {
  // A result: the SDK writes the id last.
  assertEquals(responseId(line({ result: { content: [] }, jsonrpc: "2.0", id: 7 })), 7);
  assertEquals(responseId(line({ result: {}, jsonrpc: "2.0", id: 'a"b' })), 'a"b');
  // An error: the id comes first.
  assertEquals(responseId(line({ jsonrpc: "2.0", id: 3, error: { code: 1, message: "x" } })), 3);
  // Requests and notifications from the service are not answers.
  assertEquals(responseId(line({ jsonrpc: "2.0", method: "notifications/progress" })), null);
  assertEquals(responseId(line({ jsonrpc: "2.0", id: 9, method: "roots/list" })), null);
  // Text that looks like an id inside a large answer does not fool it.
  const text = `${"x".repeat(5000)} "id":1}`;
  const big = { result: { content: [{ type: "text", text }] }, jsonrpc: "2.0", id: 12 };
  assertEquals(responseId(line(big)), 12);
  // As the front passes it on: with its newline.
  const ended = new TextEncoder().encode(JSON.stringify(big) + "\n");
  assertEquals(responseId(ended), 12);
  // Other key orders are parsed whole.
  assertEquals(responseId(line({ id: 4, jsonrpc: "2.0", result: {} })), 4);
});

Deno.test("serviceEnv: SEXTANT_LSP_PATH's folders lead the service's PATH", () => {
  const saved = Deno.env.get("SEXTANT_LSP_PATH");
  try {
    Deno.env.delete("SEXTANT_LSP_PATH");
    assertEquals(serviceEnv().PATH, undefined, "PATH is inherited as it is");
    Deno.env.set("SEXTANT_LSP_PATH", "/opt/lsp");
    const value = serviceEnv().PATH!;
    const path = value.split(delimiter);
    assertEquals(path.slice(0, 3), ["/opt/lsp", "/opt/lsp/node_modules/.bin", "/opt/lsp/bin"]);
    // The service computes the same PATH from its own (the service's files are named by it).
    assertEquals(servicePath("/opt/lsp", value), value);
  } finally {
    if (saved === undefined) Deno.env.delete("SEXTANT_LSP_PATH");
    else Deno.env.set("SEXTANT_LSP_PATH", saved);
  }
});

Deno.test("relay: a last line the service did not end never reaches the client", async () => {
  const encoder = new TextEncoder();
  const source = ReadableStream.from(["a\nb", "c\n", "\n", '{"jsonrpc":"2.0","id":3,"res'])
    .pipeThrough(
      new TransformStream<string, Uint8Array>({
        transform: (text, controller) => controller.enqueue(encoder.encode(text)),
      }),
    );
  // What the front reads from the service (LineReader.nextWhole): each line with its newline.
  const lines = new LineReader(source);
  const out: string[] = [];
  for (let line = await lines.nextWhole(); line !== null; line = await lines.nextWhole()) {
    out.push(new TextDecoder().decode(line));
  }
  assertEquals(out, ["a\n", "bc\n", "\n"]);
});
