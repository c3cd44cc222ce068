/**
 * A new user's TypeScript 7, end to end: `tsc` 7 found only through `SEXTANT_LSP_PATH` (not on
 * PATH), a project without node_modules, and Sextant started as `deno task start` starts it (the
 * `sextant` permission set, a front relaying to the shared service): the service puts the
 * folders of `SEXTANT_LSP_PATH` first on its PATH, so its run list allows that `tsc`, and the
 * registry runs TypeScript 7's own server, which answers find_referencing_symbols.
 * @module
 */
import { join } from "node:path";
import { assert, assertEquals } from "../helpers/assert.ts";
import { hasTypeScript7, LSP_CACHE, skipUnless } from "../helpers/lsp.ts";
import {
  call,
  Client,
  frontArgs,
  REPO_ROOT,
  StdioClientTransport,
  stopServices,
  tempProject,
} from "../helpers/mcp.ts";

Deno.test({
  name: "deno task start with SEXTANT_LSP_PATH: TypeScript 7's server answers references",
  ignore: skipUnless(hasTypeScript7(), "TypeScript 7"),
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  await using project = await tempProject({
    "package.json": '{ "name": "new-user", "private": true }\n',
    "tsconfig.json": '{ "compilerOptions": { "strict": true }, "include": ["src"] }\n',
    "src/shapes.ts": "export class Circle {\n  constructor(public r: number) {}\n}\n",
    "src/use.ts": 'import { Circle } from "./shapes";\n\nexport function make() {\n' +
      "  return new Circle(1);\n}\n",
  });
  const runtime = await Deno.makeTempDir({ prefix: "sextant-rt-" });
  // PATH as the user has it (no tsc 7 on it); TypeScript 7 only in SEXTANT_LSP_PATH.
  const env = {
    ...Deno.env.toObject(),
    XDG_RUNTIME_DIR: runtime,
    SEXTANT_LSP_PATH: join(LSP_CACHE, "ts7"),
  };
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: frontArgs(["--project", project.root, "--log-level", "warn"]),
    env,
    cwd: REPO_ROOT,
    stderr: "pipe",
  });
  const client = new Client({ name: "native-ts-test", version: "0" });
  try {
    await client.connect(transport);
    const answer = await call(client, "find_referencing_symbols", {
      name_path: "Circle",
      relative_path: "src/shapes.ts",
    });
    assert(!answer.isError, answer.text);
    const files = Object.keys(JSON.parse(answer.text));
    assertEquals(files, ["src/use.ts"], answer.text);
    const info = await call(client, "get_current_config", {});
    assert(info.text.includes("tsc"), info.text);
  } finally {
    await client.close().catch(() => {});
    await stopServices(runtime);
    await Deno.remove(runtime, { recursive: true }).catch(() => {});
  }
});
