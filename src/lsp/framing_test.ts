/**
 * Unit tests of the base protocol's framing (framing.ts) on in-memory streams: messages split at
 * every byte, several in one chunk, multi-byte text, headers as servers write them, a message
 * larger than the read buffer, a header without a length, and what the writer puts on the wire
 * (read back by vscode-jsonrpc's own reader, which the framing replaces).
 * @module
 */
import { Readable } from "node:stream";
import { assert, assertEquals } from "../../tests/helpers/assert.ts";
import { type Message, StreamMessageReader } from "npm:vscode-jsonrpc@10.0.0/node";
import { contentLength, FramedReader, FramedWriter } from "./framing.ts";

const encoder = new TextEncoder();

function frame(message: unknown, header = "Content-Length"): Uint8Array {
  const body = encoder.encode(JSON.stringify(message));
  const head = encoder.encode(`${header}: ${body.length}\r\n\r\n`);
  const out = new Uint8Array(head.length + body.length);
  out.set(head);
  out.set(body, head.length);
  return out;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** The messages, errors and close a reader reports for `chunks`, in order. */
async function readAll(chunks: Uint8Array[]) {
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  const reader = new FramedReader(stream);
  const messages: Message[] = [];
  const errors: string[] = [];
  const closed = new Promise<void>((resolve) => reader.onClose(() => resolve()));
  reader.onError((error) => errors.push(error.message));
  reader.listen((message) => messages.push(message));
  await closed;
  return { messages, errors };
}

const MESSAGES = [
  { jsonrpc: "2.0", id: 1, result: { text: "plain" } },
  { jsonrpc: "2.0", method: "window/logMessage", params: { message: "héllo — ünïcode 𝌆" } },
  { jsonrpc: "2.0", id: "x", result: [{ uri: "file:///a.ts", n: 1 }, null, true] },
];

Deno.test("messages in one chunk, each split at every byte, and byte by byte", async () => {
  const wire = concat(MESSAGES.map((m) => frame(m)));
  assertEquals((await readAll([wire])).messages, MESSAGES);
  for (let cut = 1; cut < wire.length; cut++) {
    const { messages, errors } = await readAll([wire.subarray(0, cut), wire.subarray(cut)]);
    assertEquals(messages, MESSAGES, `cut at ${cut}`);
    assertEquals(errors, []);
  }
  const bytes = [...wire].map((b) => new Uint8Array([b]));
  assertEquals((await readAll(bytes)).messages, MESSAGES);
});

Deno.test("headers: any case, other fields, spaces around the value", async () => {
  const body = encoder.encode(JSON.stringify(MESSAGES[1]));
  const head = `content-type: application/vscode-jsonrpc; charset=utf-8\r\n` +
    `CONTENT-LENGTH:  ${body.length} \r\n\r\n`;
  const { messages } = await readAll([encoder.encode(head), body, frame(MESSAGES[0])]);
  assertEquals(messages, [MESSAGES[1], MESSAGES[0]]);
  assertEquals(contentLength(encoder.encode("Content-Length: 12")), 12);
  assert(typeof contentLength(encoder.encode("Content-Type: x")) === "string");
  assert(typeof contentLength(encoder.encode("Content-Length: many")) === "string");
  assert(typeof contentLength(encoder.encode("no colon")) === "string");
});

Deno.test("a message larger than the read buffer, in small chunks, then small ones", async () => {
  const big = { jsonrpc: "2.0", id: 7, result: "x".repeat(700_000) + "é" };
  const wire = concat([frame(big), ...MESSAGES.map((m) => frame(m))]);
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < wire.length; at += 65_536) chunks.push(wire.subarray(at, at + 65_536));
  assertEquals((await readAll(chunks)).messages, [big, ...MESSAGES]);
});

Deno.test("a header without Content-Length is an error, and reading stops", async () => {
  const { messages, errors } = await readAll([
    frame(MESSAGES[0]),
    encoder.encode("Content-Type: x\r\n\r\n{}"),
    frame(MESSAGES[1]),
  ]);
  assertEquals(messages, [MESSAGES[0]]);
  assertEquals(errors.length, 1);
  assert(errors[0]!.includes("Content-Length"), errors[0]);
});

Deno.test("a body that is not JSON is an error; the next message still comes", async () => {
  const { messages, errors } = await readAll([
    encoder.encode("Content-Length: 3\r\n\r\n{x}"),
    frame(MESSAGES[2]),
  ]);
  assertEquals(messages, [MESSAGES[2]]);
  assertEquals(errors.length, 1);
});

Deno.test("the writer's bytes, read back by vscode-jsonrpc's own reader", async () => {
  const written: Uint8Array[] = [];
  const writer = new FramedWriter(
    new WritableStream({ write: (chunk) => void written.push(chunk) }),
  );
  for (const message of MESSAGES) await writer.write(message as Message);
  // One write per message: the header and its body together.
  assertEquals(written.length, MESSAGES.length);
  const read: Message[] = [];
  const errors: Error[] = [];
  const reader = new StreamMessageReader(Readable.from([Buffer.from(concat(written))]));
  // It decodes each message after a turn of its own, after the stream's end: its last message
  // (or an error) ends the wait.
  await new Promise<void>((resolve) => {
    reader.onError((error) => (errors.push(error), resolve()));
    reader.listen((message) => {
      read.push(message);
      if (read.length === MESSAGES.length) resolve();
    });
  });
  assertEquals(errors, []);
  assertEquals(read, MESSAGES);
});

Deno.test("a write to a closed stream rejects and reports the error", async () => {
  const stream = new WritableStream<Uint8Array>({
    write: () => Promise.reject(new Error("broken pipe")),
  });
  const writer = new FramedWriter(stream);
  const errors: string[] = [];
  writer.onError(([error]) => errors.push(error.message));
  let rejected = false;
  await writer.write(MESSAGES[0] as Message).catch(() => rejected = true);
  assert(rejected);
  assert(errors.includes("broken pipe"), String(errors));
});
