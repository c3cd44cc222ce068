/**
 * A SCIP index the user's global config names (`scip_indexes`): a path outside the project, read
 * with the same manifest rules; a URL (served here by a local Deno.serve) downloaded into the
 * project's cache once, with progress; a download that fails or is over its bound, answered live
 * with the error beside the answer; and the same setting in the repository's own config, dropped.
 * The index is built once per run by scip-typescript (`sextant index build`'s own code). The
 * harness's top layer stands for the global config: both are the user's, and layered alike.
 */
import { join } from "node:path";
import { assert, assertEquals } from "../helpers/assert.ts";
import { hasServer, skipUnless } from "../helpers/lsp.ts";
import { fixtureTree } from "../helpers/symbols.ts";
import { toolHarness } from "../helpers/tool_ctx.ts";
import { findReferences } from "../../src/tools/ide/find_references.ts";
import { buildIndex } from "../../src/symbols/scip/build.ts";
import type { ScipIndexSource } from "../../src/config/schema.ts";
import type { ToolContext } from "../../src/tools/tool.ts";
import { ignoredGlobalOnlySettings } from "../../src/config/load.ts";

interface Answer {
  references: Array<{ file: string; line: number; column: number }>;
  note?: string;
}

const ARGS = { relative_path: "src/shapes.ts", name_path: "Circle" };
const FROM_INDEX = "Answered from the SCIP index";

let built: { index: Uint8Array; manifest: string } | null = null;
async function fixtureIndex(): Promise<{ index: Uint8Array; manifest: string }> {
  if (built) return built;
  await using h = await toolHarness(await fixtureTree("typescript"));
  const result = await buildIndex(h.root, { languages: ["typescript"] });
  assertEquals(result.runs.map((r) => r.ok), [true], JSON.stringify(result.runs));
  built = {
    index: await Deno.readFile(result.output),
    manifest: await Deno.readTextFile(result.manifest),
  };
  return built;
}

/** The index and its manifest in a folder outside the project. */
async function writeOutside(outside: string): Promise<string> {
  const { index, manifest } = await fixtureIndex();
  const path = join(outside, "ci", "index.scip");
  await Deno.mkdir(join(outside, "ci"), { recursive: true });
  await Deno.writeFile(path, index);
  await Deno.writeTextFile(`${path}.files`, manifest);
  return path;
}

/** A local HTTP server of the index (and, unless left out, its manifest), counting requests. */
function serveIndex(
  files: Record<string, Uint8Array | string>,
): { url: string; requests: string[]; close: () => Promise<void> } {
  const requests: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    const path = new URL(req.url).pathname;
    requests.push(path);
    const body = files[path];
    return body === undefined
      ? new Response("not found", { status: 404 })
      : new Response(typeof body === "string" ? body : new Uint8Array(body), {
        headers: { "ETag": '"v1"' },
      });
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    requests,
    close: () => server.shutdown(),
  };
}

/** Progress messages a tool call sends. */
function recordProgress(ctx: ToolContext): string[] {
  const messages: string[] = [];
  ctx.progress = (_done, _total, message) => {
    if (message) messages.push(message);
    return Promise.resolve();
  };
  return messages;
}

const tsReady = hasServer("typescript-language-server") && hasServer("npm", ["--version"]);
const TS_NEEDS = "typescript-language-server and npm (scip-typescript comes through npm exec)";
const options = { sanitizeResources: false, sanitizeOps: false };

Deno.test({
  name: "scip_indexes: an index at a path the global config names answers, with no server",
  ignore: skipUnless(hasServer("npm", ["--version"]), "npm (scip-typescript)"),
  ...options,
}, async () => {
  await fixtureIndex();
  let named = "";
  await using h = await toolHarness(await fixtureTree("typescript"), {
    overrides: (root) => {
      named = join(root, "..", "outside", "ci", "index.scip");
      return { scip_indexes: { [root]: named } };
    },
  });
  // Not there yet: no index, and the next answer's note says why.
  const scip = h.session.services(h.project).scip;
  assertEquals(await scip.state(), null);
  assert(scip.takeProblem()?.includes(`${named}, does not exist`));
  assertEquals(await writeOutside(h.outside), named);
  const answer: Answer = JSON.parse(await h.call(findReferences, ARGS));
  assert(answer.note?.startsWith(FROM_INDEX), answer.note);
  assert(answer.references.length > 5, JSON.stringify(answer.references));
  assertEquals(h.session.services(h.project).pool.running().length, 0);
  // The same manifest rules: without it the index is not used, and the answer says why.
  await Deno.remove(`${named}.files`);
  await Deno.writeFile(named, (await fixtureIndex()).index); // a new stamp: read again
  assertEquals(await scip.state(), null);
  assert(scip.takeProblem()?.includes("has no manifest"));
  await h.session.dispose();
});

Deno.test({
  name: "scip_indexes: an index at a URL the global config names is downloaded once, with progress",
  ignore: skipUnless(hasServer("npm", ["--version"]), "npm (scip-typescript)"),
  ...options,
}, async () => {
  const { index, manifest } = await fixtureIndex();
  const served = serveIndex({ "/ci/index.scip": index, "/ci/index.scip.files": manifest });
  try {
    await using h = await toolHarness(await fixtureTree("typescript"), {
      overrides: (root) => ({ scip_indexes: { [root]: `${served.url}/ci/index.scip` } }),
    });
    const progress = recordProgress(h.ctx);
    const answer: Answer = JSON.parse(await h.call(findReferences, ARGS));
    assert(answer.note?.startsWith(FROM_INDEX), answer.note);
    assert(answer.references.length > 5, JSON.stringify(answer.references));
    assertEquals(h.session.services(h.project).pool.running().length, 0);
    assert(progress.some((m) => m.startsWith("downloading the SCIP index")), progress.join("|"));
    assertEquals(served.requests, ["/ci/index.scip", "/ci/index.scip.files"]);
    // In the project's cache, whole, and nothing half-written left beside it.
    assertEquals(await h.bytes(".sextant/cache/scip/index.scip"), index);
    assertEquals(await h.read(".sextant/cache/scip/index.scip.files"), manifest);
    const left = (await h.listAll()).filter((p) => p.includes(".download-"));
    assertEquals(left, []);
    // The next question reads the copy: no new download.
    JSON.parse(await h.call(findReferences, ARGS));
    assertEquals(served.requests.length, 2);
    await h.session.dispose();
  } finally {
    await served.close();
  }
});

Deno.test({
  name: "scip_indexes: a failed or oversized download answers live, with the error beside it",
  ignore: skipUnless(tsReady, TS_NEEDS),
  ...options,
}, async (t) => {
  const { index, manifest } = await fixtureIndex();
  // The manifest is missing on this server: the download as a whole fails.
  const served = serveIndex({ "/ci/index.scip": index, "/big/index.scip": index });
  try {
    const cases: Array<{ name: string; source: (url: string) => ScipIndexSource; says: string }> = [
      {
        name: "a missing manifest (404)",
        source: (url) => `${url}/ci/index.scip`,
        says: "answered 404",
      },
      {
        name: "an index over max_bytes",
        source: (url) => ({ url: `${url}/big/index.scip`, max_bytes: 1000 }),
        says: "larger than 1000 bytes",
      },
    ];
    for (const c of cases) {
      await t.step(c.name, async () => {
        await using h = await toolHarness(await fixtureTree("typescript"), {
          overrides: (root) => ({ scip_indexes: { [root]: c.source(served.url) } }),
        });
        const answer: Answer = JSON.parse(await h.call(findReferences, ARGS));
        assertEquals(answer.note, undefined, "answered by the live server");
        assert(answer.references.length > 5);
        const notes = h.notes();
        assertEquals(notes.length, 1, JSON.stringify(notes));
        assert(notes[0]!.includes(c.says), notes[0]);
        assert(notes[0]!.includes("Answered without the index"), notes[0]);
        assertEquals(await h.exists(".sextant/cache/scip/index.scip"), false);
        const left = (await h.listAll()).filter((p) => p.includes(".download-"));
        assertEquals(left, []);
        await h.session.dispose();
      });
    }
  } finally {
    await served.close();
  }
  void manifest;
});

Deno.test({
  name: "scip_indexes in the repository's own config is dropped: the live server answers",
  ignore: skipUnless(tsReady, TS_NEEDS),
  ...options,
}, async () => {
  let named = "";
  await using h = await toolHarness(await fixtureTree("typescript"), {
    projectConfig: (root) => {
      named = join(root, "..", "outside", "ci", "index.scip");
      return { scip_indexes: { [root]: named } };
    },
  });
  assertEquals(await writeOutside(h.outside), named);
  assertEquals(h.project.settings.scip_indexes, {});
  assertEquals(await ignoredGlobalOnlySettings(h.root), ["scip_indexes"]);
  const answer: Answer = JSON.parse(await h.call(findReferences, ARGS));
  assertEquals(answer.note, undefined, "not from the index the repository named");
  assert(answer.references.length > 5);
  await h.session.dispose();
});
