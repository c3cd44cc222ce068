import { join } from "node:path";
import { assert, assertEquals, assertRejects } from "../../../tests/helpers/assert.ts";
import { tempDir } from "../../../tests/helpers/tool_ctx.ts";
import { downloadedPaths, downloadIndex, IndexDownloadError } from "./download.ts";

/** A loopback server of fixed files that honours If-None-Match, counting full answers. */
function serve(files: Record<string, string>) {
  let full = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    const body = files[new URL(req.url).pathname];
    if (body === undefined) return new Response("no", { status: 404 });
    const etag = `"${body.length}"`;
    if (req.headers.get("If-None-Match") === etag) return new Response(null, { status: 304 });
    full++;
    return new Response(body, { headers: { ETag: etag } });
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    full: () => full,
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}

Deno.test("downloadIndex: both files in place, then a 304 keeps them", async () => {
  await using dir = await tempDir();
  await using s = serve({ "/i.scip": "index bytes", "/i.scip.files": "manifest" });
  const target = join(dir.path, "scip");
  const first = await downloadIndex(`${s.url}/i.scip`, target);
  assertEquals(first, { ...downloadedPaths(target), fetched: true });
  assertEquals(await Deno.readTextFile(first.index), "index bytes");
  assertEquals(await Deno.readTextFile(first.manifest), "manifest");
  const second = await downloadIndex(`${s.url}/i.scip`, target);
  assertEquals(second.fetched, false);
  assertEquals(s.full(), 2, "the index and the manifest, once each");
});

Deno.test("downloadIndex: an empty index, a 404 manifest, or one over the bound changes nothing", async () => {
  await using dir = await tempDir();
  await using s = serve({ "/empty.scip": "", "/lone.scip": "index", "/big.scip": "x".repeat(100) });
  const target = join(dir.path, "scip");
  for (
    const [name, options, says] of [
      ["empty.scip", {}, "is empty"],
      ["lone.scip", {}, "answered 404"],
      ["big.scip", { maxBytes: 10 }, "larger than 10 bytes"],
    ] as const
  ) {
    const error = await assertRejects(
      () => downloadIndex(`${s.url}/${name}`, target, options),
      says,
    );
    assert(error instanceof IndexDownloadError, String(error));
  }
  assertEquals([...Deno.readDirSync(target)].map((e) => e.name), []);
});
