import { assertEquals, assertStringIncludes } from "../../tests/helpers/assert.ts";
import { MAX_HEAD_BYTES, serveHttp1 } from "./http_server.ts";

async function withServer(fn: (port: number) => Promise<void>): Promise<void> {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const served = serveHttp1(listener, {
    handler: async (request) => {
      const body = request.body ? await request.text() : "";
      return new Response(`${request.method} ${new URL(request.url).pathname} ${body}`);
    },
    authorized: (request) => request.headers.get("x-token") === "yes",
    limits: { maxUnauthenticated: 4, maxAuthenticated: 4 },
  });
  try {
    await fn((listener.addr as Deno.NetAddr).port);
  } finally {
    listener.close();
    await served;
  }
}

/** Everything the server sends until it closes the connection. */
async function readToEnd(conn: Deno.Conn): Promise<string> {
  let text = "";
  const buffer = new Uint8Array(4096);
  for (let n = await conn.read(buffer); n !== null; n = await conn.read(buffer)) {
    text += new TextDecoder().decode(buffer.subarray(0, n));
  }
  return text;
}

/** Read until `text` has arrived. */
async function readUntil(conn: Deno.Conn, text: string): Promise<string> {
  let seen = "";
  const buffer = new Uint8Array(4096);
  while (!seen.includes(text)) {
    const n = await conn.read(buffer);
    if (n === null) break;
    seen += new TextDecoder().decode(buffer.subarray(0, n));
  }
  return seen;
}

const send = (conn: Deno.Conn, text: string) => conn.write(new TextEncoder().encode(text));

Deno.test("serveHttp1: chunked bodies, chunked answers, and keep-alive once authorized", async () => {
  await withServer(async (port) => {
    const conn = await Deno.connect({ hostname: "127.0.0.1", port });
    try {
      await send(
        conn,
        "POST /mcp HTTP/1.1\r\nHost: x\r\nx-token: yes\r\nTransfer-Encoding: chunked\r\n\r\n" +
          "5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n",
      );
      const first = await readUntil(conn, "0\r\n\r\n");
      assertStringIncludes(first, "HTTP/1.1 200 OK\r\n");
      assertStringIncludes(first, "transfer-encoding: chunked");
      assertStringIncludes(first, "POST /mcp hello world");
      await send(conn, "POST /two HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc");
      assertStringIncludes(await readUntil(conn, "0\r\n\r\n"), "POST /two abc");
    } finally {
      conn.close();
    }
  });
});

Deno.test("serveHttp1: Expect: 100-continue is answered before the body is sent", async () => {
  await withServer(async (port) => {
    const conn = await Deno.connect({ hostname: "127.0.0.1", port });
    try {
      await send(
        conn,
        "POST /mcp HTTP/1.1\r\nHost: x\r\nx-token: yes\r\nContent-Length: 4\r\n" +
          "Expect: 100-continue\r\n\r\n",
      );
      assertStringIncludes(await readUntil(conn, "\r\n\r\n"), "HTTP/1.1 100 Continue");
      await send(conn, "body");
      assertStringIncludes(await readUntil(conn, "0\r\n\r\n"), "POST /mcp body");
    } finally {
      conn.close();
    }
  });
});

Deno.test("serveHttp1: without credentials, one answer and the connection closes", async () => {
  await withServer(async (port) => {
    const conn = await Deno.connect({ hostname: "127.0.0.1", port });
    await send(conn, "GET /mcp HTTP/1.1\r\nHost: x\r\n\r\n");
    const all = await readToEnd(conn);
    assertStringIncludes(all, "connection: close");
    assertStringIncludes(all, "GET /mcp ");
    conn.close();
  });
});

Deno.test("serveHttp1: an oversized head gets 431; a malformed one 400", async () => {
  await withServer(async (port) => {
    const big = await Deno.connect({ hostname: "127.0.0.1", port });
    await send(big, `GET / HTTP/1.1\r\nX-Big: ${"a".repeat(MAX_HEAD_BYTES + 10)}\r\n`);
    assertStringIncludes(await readToEnd(big), "HTTP/1.1 431 ");
    big.close();
    const bad = await Deno.connect({ hostname: "127.0.0.1", port });
    await send(bad, "NONSENSE\r\n\r\n");
    assertEquals((await readToEnd(bad)).split("\r\n")[0], "HTTP/1.1 400 Bad Request");
    bad.close();
  });
});

Deno.test("serveHttp1: one session holds at most so many connections", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const served = serveHttp1(listener, {
    handler: () => Promise.resolve(new Response("ok")),
    authorized: () => true,
    limits: { maxUnauthenticated: 8, maxAuthenticated: 8 },
    sessionOf: (request) => request.headers.get("mcp-session-id"),
    maxPerSession: 2,
  });
  const port = (listener.addr as Deno.NetAddr).port;
  const conns: Deno.Conn[] = [];
  try {
    const statuses: string[] = [];
    for (let i = 0; i < 3; i++) {
      const conn = await Deno.connect({ hostname: "127.0.0.1", port });
      conns.push(conn);
      await send(conn, "GET /mcp HTTP/1.1\r\nHost: x\r\nMcp-Session-Id: s1\r\n\r\n");
      statuses.push((await readUntil(conn, "\r\n\r\n")).split("\r\n")[0]!);
    }
    assertEquals(statuses, [
      "HTTP/1.1 200 OK",
      "HTTP/1.1 200 OK",
      "HTTP/1.1 503 Service Unavailable",
    ]);
    // Another session is not counted against it.
    const other = await Deno.connect({ hostname: "127.0.0.1", port });
    conns.push(other);
    await send(other, "GET /mcp HTTP/1.1\r\nHost: x\r\nMcp-Session-Id: s2\r\n\r\n");
    assertStringIncludes(await readUntil(other, "\r\n\r\n"), "HTTP/1.1 200 OK");
  } finally {
    for (const conn of conns) conn.close();
    listener.close();
    await served;
  }
});

Deno.test("serveHttp1: a client that leaves ends the event stream it was sent", async () => {
  let cancelled!: () => void;
  const wasCancelled = new Promise<void>((resolve) => cancelled = resolve);
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const served = serveHttp1(listener, {
    // A stream that stays quiet after its first event, as an idle MCP event stream does.
    handler: () =>
      Promise.resolve(
        new Response(
          new ReadableStream<Uint8Array>({
            start: (controller) => controller.enqueue(new TextEncoder().encode("event: hi\n\n")),
            cancel: () => cancelled(),
          }),
          { headers: { "content-type": "text/event-stream" } },
        ),
      ),
    authorized: () => true,
    limits: { maxUnauthenticated: 4, maxAuthenticated: 4 },
  });
  try {
    const conn = await Deno.connect({
      hostname: "127.0.0.1",
      port: (listener.addr as Deno.NetAddr).port,
    });
    await send(conn, "GET /mcp HTTP/1.1\r\nHost: x\r\n\r\n");
    assertStringIncludes(await readUntil(conn, "event: hi"), "text/event-stream");
    conn.close();
    await wasCancelled;
  } finally {
    listener.close();
    await served;
  }
});
