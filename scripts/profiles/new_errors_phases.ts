/**
 * Where the time of the new-errors report goes (tools/new_errors.ts), on a bare
 * vscode-jsonrpc connection to typescript-language-server over the generated project of
 * `scripts/bench/bench.ts`: after a change of one module, tsserver's program update (forced alone with
 * `projectInfo`), the semantic check of the changed file and of its importer, the syntactic
 * checks, the suggestion pass; then the floor (the change, then syntactic and semantic
 * diagnostics of both files in flight at once), settled between edits and back to back.
 *
 *     deno run -A scripts/profiles/new_errors_phases.ts [--files 3000] [--runs 8]
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { generate } from "../bench/bench.ts";
import { RawServer } from "../bench/lib/raw_server.ts";
import { LSP_PATH_ENV } from "../../src/lsp/registry.ts";

const REPO = fileURLToPath(new URL("../..", import.meta.url));
/** Between edits: more than typescript-language-server's own diagnostics delay (300 ms). */
const SETTLE_MS = 1_200;

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      files: { type: "string", default: "3000" },
      runs: { type: "string", default: "8" },
    },
  });
  const runs = Number(values.runs);
  if (!Deno.env.get(LSP_PATH_ENV)) Deno.env.set(LSP_PATH_ENV, join(REPO, ".cache", "lsp"));
  const parent = Deno.realPathSync(await Deno.makeTempDir({ prefix: "sextant-phases-" }));
  const root = join(parent, "project");
  await generate(root, Number(values.files));
  const changed = "src/pkg05/mod0005.ts";
  const importer = "src/pkg06/mod0006.ts";
  const raw = await RawServer.start(root);
  const ts = (command: string, rel: string, extra: Record<string, unknown> = {}) =>
    raw.connection.sendRequest("workspace/executeCommand", {
      command: "typescript.tsserverRequest",
      arguments: [command, { file: raw.uri(rel), ...extra }],
    });
  const settle = () => new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  try {
    await raw.openFile(changed);
    await raw.openFile(importer);
    const t0 = performance.now();
    await ts("semanticDiagnosticsSync", changed);
    console.log(`project load + first check: ${(performance.now() - t0).toFixed(0)} ms`);
    await settle();
    let text = await Deno.readTextFile(join(root, changed));
    let version = 1_000;
    const change = async () => {
      text = text.includes("by * 1;")
        ? text.replace("this.count += by * 1;", "this.count += by;")
        : text.replace("this.count += by;", "this.count += by * 1;");
      await raw.connection.sendNotification("textDocument/didChange", {
        textDocument: { uri: raw.uri(changed), version: ++version },
        contentChanges: [{ text }],
      });
    };
    const times = new Map<string, number[]>();
    const time = async (label: string, fn: () => Promise<unknown>) => {
      const start = performance.now();
      await fn();
      times.set(label, [...times.get(label) ?? [], performance.now() - start]);
    };
    const both = (command: string) => Promise.all([ts(command, changed), ts(command, importer)]);
    for (let i = 0; i < runs; i++) {
      await time("didChange (a notification)", change);
      await time(
        "program update (projectInfo)",
        () => ts("projectInfo", changed, { needFileNameList: false }),
      );
      await time("semantic, changed file", () => ts("semanticDiagnosticsSync", changed));
      await time("semantic, importer", () => ts("semanticDiagnosticsSync", importer));
      await time("syntactic, both", () => both("syntacticDiagnosticsSync"));
      await time("suggestion, both", () => both("suggestionDiagnosticsSync"));
      await settle();
    }
    const floor = async () => {
      await change();
      await Promise.all([both("syntacticDiagnosticsSync"), both("semanticDiagnosticsSync")]);
    };
    for (let i = 0; i < runs; i++) {
      await time("floor: change + syntactic & semantic of both, settled", floor);
      await settle();
    }
    for (let i = 0; i < runs; i++) {
      await time("floor, back to back", floor);
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
    for (const [label, xs] of times) {
      console.log(
        `${label.padEnd(56)} median ${median(xs).toFixed(1).padStart(6)} ms  ` +
          `[${xs.map((x) => x.toFixed(0)).join(" ")}]`,
      );
    }
  } finally {
    await raw.stop();
    await Deno.remove(parent, { recursive: true }).catch(() => {});
  }
}
