/**
 * Unit tests of the engine's pure logic: registry selection and config overrides, binary lookup,
 * settings lookup, backoff, progress tracking and versioned diagnostics. No server is started.
 * @module
 */
import { basename, join } from "node:path";
import { assert, assertEquals, assertStringIncludes } from "../../tests/helpers/assert.ts";
import { tempDir } from "../../tests/helpers/tool_ctx.ts";
import { CODE_EXTENSIONS } from "../project/source_languages.ts";
import {
  declaredTypeScriptMajor,
  findServerBinary,
  isDenoProject,
  jdtlsWorkspace,
  languageIdOf,
  LSP_PATH_ENV,
  resolveCommand,
  type ServerCommand,
  serverSpecs,
  specForFile,
  tscMajor,
  typescriptCommands,
} from "./registry.ts";
import { lookupSection, mergeSettings } from "./settings.ts";
import { backoffMs } from "./managed_server.ts";
import { ProgressTracker, REQUEST_TOKEN_PREFIX } from "./progress.ts";
import { DiagnosticsStore } from "./pushed_diagnostics.ts";

Deno.test("registry: files go to the server of their extension", async () => {
  await using dir = await tempDir();
  const specs = serverSpecs(dir.path);
  assertEquals(specForFile(specs, "src/a.ts")?.id, "typescript");
  assertEquals(specForFile(specs, "src/A.TSX")?.id, "typescript");
  assertEquals(languageIdOf(specForFile(specs, "x.tsx")!, "x.tsx"), "typescriptreact");
  assertEquals(specForFile(specs, "pkg/m.py")?.id, "python");
  assertEquals(specForFile(specs, "main.rs")?.id, "rust");
  assertEquals(specForFile(specs, "main.go")?.id, "go");
  assertEquals(specForFile(specs, "x.hpp")?.id, "cpp");
  assertEquals(specForFile(specs, "p.adb")?.id, "ada");
  assertEquals(specForFile(specs, "run.sh")?.id, "bash");
  assertEquals(specForFile(specs, "ci.yml")?.id, "yaml");
  assertEquals(specForFile(specs, "package.json")?.id, "json");
  assertEquals(specForFile(specs, "README.md"), undefined);
  assertEquals(specForFile(specs, "Makefile"), undefined);
});

Deno.test("registry: Java goes to jdtls with a workspace outside the project", async () => {
  await using dir = await tempDir();
  const spec = specForFile(serverSpecs(dir.path), "src/main/java/demo/App.java");
  assertEquals([spec?.id, spec?.languageId, spec?.commands[0]?.command], ["java", "java", "jdtls"]);
  const args = spec!.commands[0]!.args;
  assertEquals(args, ["-data", jdtlsWorkspace(dir.path)]);
  // Eclipse treats a project that contains its workspace as loose files: never under the root.
  assert(!args[1]!.startsWith(dir.path), args[1]);
  assert(jdtlsWorkspace(join(dir.path, "a")) !== jdtlsWorkspace(join(dir.path, "b")));
  assertEquals(jdtlsWorkspace(dir.path), jdtlsWorkspace(dir.path));
});

Deno.test("registry: every server extension counts as a code file", async () => {
  await using dir = await tempDir();
  for (const spec of serverSpecs(dir.path)) {
    for (const ext of spec.extensions) assert(CODE_EXTENSIONS.has(ext), `${ext} (${spec.id})`);
  }
});

Deno.test("registry: deno lsp for Deno projects, typescript-language-server otherwise", async () => {
  await using dir = await tempDir();
  assert(!isDenoProject(dir.path));
  await Deno.writeTextFile(join(dir.path, "deno.json"), "{}");
  assert(isDenoProject(dir.path));
  const spec = specForFile(serverSpecs(dir.path), "main.ts")!;
  assertEquals(spec.id, "deno");
  assertEquals(spec.commands[0]!.args, ["lsp"]);
  await Deno.writeTextFile(join(dir.path, "tsconfig.json"), "{}");
  assertEquals(specForFile(serverSpecs(dir.path), "main.ts")!.id, "typescript");
});

Deno.test("registry: config adds, overrides and disables servers", async () => {
  await using dir = await tempDir();
  const specs = serverSpecs(dir.path, {
    lua: { command: "lua-language-server", extensions: ["lua"], settings: { Lua: {} } },
    python: { command: "pylsp", args: ["-v"], settings: { pylsp: { plugins: {} } } },
    typescript: { initialization_options: { preferences: { quotePreference: "single" } } },
    yaml: { disabled: true },
    broken: { extensions: [".x"] },
  });
  const lua = specForFile(specs, "init.lua")!;
  assertEquals([lua.id, lua.languageId, lua.commands[0]!.command], [
    "lua",
    "lua",
    "lua-language-server",
  ]);
  const python = specForFile(specs, "a.py")!;
  assertEquals(python.commands.map((c) => [c.command, c.args]), [["pylsp", ["-v"]]]);
  assertEquals(python.commands[0]!.settings, { pylsp: { plugins: {} } });
  const tls = (commands: ServerCommand[]) =>
    commands.find((c) => c.command === "typescript-language-server")!;
  const ts = tls(specForFile(specs, "a.ts")!.commands);
  const init = ts.initializationOptions as Record<string, Record<string, unknown>>;
  assertEquals(init.tsserver, { useSyntaxServer: "never" }, "built-in options kept");
  assertEquals(init.preferences, { quotePreference: "single" });
  assertEquals(ts.queuedAnswers, undefined, "own options may change how it answers");
  assertEquals(tls(specForFile(serverSpecs(dir.path), "a.ts")!.commands).queuedAnswers, true);
  assertEquals(specForFile(specs, "a.yaml"), undefined);
  assertEquals(specForFile(specs, "a.x"), undefined, "a new server without command is ignored");
});

Deno.test("registry: binaries are found in SEXTANT_LSP_PATH and node_modules/.bin", async () => {
  await using dir = await tempDir();
  const bin = join(dir.path, "tools", "node_modules", ".bin");
  await Deno.mkdir(bin, { recursive: true });
  await Deno.writeTextFile(join(bin, "fake-ls"), "#!/bin/sh\n");
  await Deno.chmod(join(bin, "fake-ls"), 0o755);
  await Deno.mkdir(join(dir.path, "node_modules", ".bin"), { recursive: true });
  await Deno.writeTextFile(join(dir.path, "node_modules", ".bin", "local-ls"), "#!/bin/sh\n");
  await Deno.chmod(join(dir.path, "node_modules", ".bin", "local-ls"), 0o755);
  await Deno.writeTextFile(join(dir.path, "node_modules", ".bin", "not-exec"), "");
  const saved = Deno.env.get(LSP_PATH_ENV);
  Deno.env.set(LSP_PATH_ENV, join(dir.path, "tools"));
  try {
    assertEquals(findServerBinary("fake-ls", dir.path), join(bin, "fake-ls"));
    assertEquals(
      findServerBinary("local-ls", dir.path),
      join(dir.path, "node_modules/.bin/local-ls"),
    );
    assertEquals(findServerBinary("not-exec", dir.path), null);
    assertEquals(findServerBinary("sh", dir.path) !== null, true, "PATH is searched");
    const spec = serverSpecs(dir.path, { rust: { command: "no-such-analyzer-xyz" } })
      .find((s) => s.id === "rust")!;
    const resolved = resolveCommand(spec, dir.path);
    assert("error" in resolved);
    assertStringIncludes(resolved.error, "The Rust language server 'no-such-analyzer-xyz'");
    assertStringIncludes(resolved.error, "Other languages keep working");
    const ts = resolveCommand(serverSpecs(dir.path).find((s) => s.id === "typescript")!, "/");
    if ("error" in ts) {
      assertStringIncludes(ts.error, "npm install -g typescript-language-server@6.0.2");
      assert(
        !ts.error.includes("typescript@5"),
        "a global TypeScript 5 would replace TypeScript 7",
      );
      assertStringIncludes(ts.error, "npm install -g typescript@7");
    }
  } finally {
    if (saved === undefined) Deno.env.delete(LSP_PATH_ENV);
    else Deno.env.set(LSP_PATH_ENV, saved);
  }
});

/** A fake TypeScript package of `version` in `<root>/node_modules`, linked as npm links it. */
async function fakeTypeScript(root: string, version: string): Promise<void> {
  const pkg = join(root, "node_modules", "typescript");
  await Deno.mkdir(join(pkg, "bin"), { recursive: true });
  await Deno.mkdir(join(root, "node_modules", ".bin"), { recursive: true });
  await Deno.writeTextFile(
    join(pkg, "package.json"),
    JSON.stringify({ name: "typescript", version }),
  );
  await Deno.writeTextFile(join(pkg, "bin", "tsc"), "#!/bin/sh\n");
  await Deno.chmod(join(pkg, "bin", "tsc"), 0o755);
  await Deno.symlink("../typescript/bin/tsc", join(root, "node_modules", ".bin", "tsc"));
}

Deno.test("registry: the project's TypeScript generation chooses its server", async () => {
  await using seven = await tempDir();
  await fakeTypeScript(seven.path, "7.0.2");
  const native = typescriptCommands(seven.path);
  assertEquals(native.map((c) => basename(c.command)), ["tsc", "typescript-language-server"]);
  assertEquals(native[0]!.args, ["--lsp", "--stdio"]);
  // No automatic type acquisition (an npm install of typings in the middle of a question), in
  // the sections TypeScript 7's server asks for.
  const settings = native[0]!.settings;
  assertEquals(lookupSection(settings, "typescript"), { disableAutomaticTypeAcquisition: true });
  for (const section of ["js/ts", "ts/js"]) {
    assertEquals(lookupSection(settings, section), {
      tsserver: { automaticTypeAcquisition: { enabled: false } },
    });
  }
  assertEquals(tscMajor(join(seven.path, "node_modules", ".bin", "tsc")), 7);
  const spec = serverSpecs(seven.path).find((s) => s.id === "typescript")!;
  const resolved = resolveCommand(spec, seven.path);
  assert("path" in resolved, JSON.stringify(resolved));
  assertEquals(resolved.path, join(seven.path, "node_modules", ".bin", "tsc"));
  assertEquals(resolved.command.args, ["--lsp", "--stdio"]);

  await using five = await tempDir();
  await fakeTypeScript(five.path, "5.9.3");
  const old = typescriptCommands(five.path);
  assertEquals(old[0]!.command, "typescript-language-server");
  // Installed alone: it runs the project's TypeScript; a global typescript@5 would replace 7.
  assertEquals(
    old[0]!.install,
    "npm install -g typescript-language-server@6.0.2 (for TypeScript 6 or older; it runs the " +
      "project's own TypeScript 5 from node_modules)",
  );
  // TypeScript 5's tsc has no --lsp: never taken for TypeScript 7's server.
  assertEquals(old[1]!.accepts!(join(five.path, "node_modules", ".bin", "tsc")), false);

  // No TypeScript anywhere: the declared version decides, else TypeScript 7 comes first.
  await using declared = await tempDir();
  const saved = Deno.env.get("PATH");
  const savedLsp = Deno.env.get(LSP_PATH_ENV);
  try {
    Deno.env.set("PATH", join(declared.path, "empty"));
    Deno.env.delete(LSP_PATH_ENV);
    const first = () => basename(typescriptCommands(declared.path)[0]!.command);
    assertEquals(first(), "tsc");
    await Deno.writeTextFile(
      join(declared.path, "package.json"),
      JSON.stringify({ devDependencies: { typescript: "^5.9.3" } }),
    );
    assertEquals(first(), "typescript-language-server");
    assertEquals(declaredTypeScriptMajor(declared.path), 5);
    // Declared but not installed: the project's own TypeScript first, which the server runs.
    assertStringIncludes(
      typescriptCommands(declared.path)[0]!.install,
      "npm install in the project",
    );
  } finally {
    if (saved === undefined) Deno.env.delete("PATH");
    else Deno.env.set("PATH", saved);
    if (savedLsp !== undefined) Deno.env.set(LSP_PATH_ENV, savedLsp);
  }

  // Config may name TypeScript 7's server by a path: its known arguments are kept.
  const forced = serverSpecs(five.path, { typescript: { command: "/opt/ts7/bin/tsc" } })
    .find((s) => s.id === "typescript")!;
  assertEquals(forced.commands.map((c) => [c.command, c.args]), [
    ["/opt/ts7/bin/tsc", ["--lsp", "--stdio"]],
  ]);
});

Deno.test("settings: workspace/configuration sections and merging", () => {
  const settings = { python: { analysis: { typeCheckingMode: "strict" } }, "flat.key": 3 };
  assertEquals(lookupSection(settings, "python.analysis"), { typeCheckingMode: "strict" });
  assertEquals(lookupSection(settings, "python.analysis.typeCheckingMode"), "strict");
  assertEquals(lookupSection(settings, "flat.key"), 3);
  assertEquals(lookupSection(settings, "flat"), { key: 3 });
  assertEquals(lookupSection(settings, "missing"), undefined);
  assertEquals(lookupSection(settings, undefined), settings);
  assertEquals(mergeSettings({ a: { b: 1, c: [1] } }, { a: { c: [2], d: 3 } }), {
    a: { b: 1, c: [2], d: 3 },
  });
});

Deno.test("backoff: immediate first restart, then doubling up to 30 s", () => {
  assertEquals([1, 2, 3, 4, 5, 20].map(backoffMs), [0, 500, 1000, 2000, 4000, 30_000]);
});

Deno.test("progress: busy while a loading token is open; request tokens never count", async () => {
  const tracker = new ProgressTracker();
  assert(!tracker.busy);
  tracker.create("load");
  assert(tracker.busy);
  const epoch = tracker.epoch;
  tracker.progress("load", { kind: "begin", title: "Indexing", percentage: 10 });
  assert(tracker.epoch > epoch);
  assertEquals(tracker.describe(), "Indexing (10%)");
  const reports: string[] = [];
  const idle = tracker.whenIdle({
    timeoutMs: 5_000,
    report: (t) => reports.push(t),
    onTimeout: () => new Error("timeout"),
  });
  tracker.progress("load", { kind: "report", message: "3/4", percentage: 75 });
  tracker.progress("load", { kind: "end" });
  await idle;
  assertEquals(reports, ["Indexing (10%)", "Indexing: 3/4 (75%)"]);
  tracker.create(`${REQUEST_TOKEN_PREFIX}7`);
  tracker.progress(`${REQUEST_TOKEN_PREFIX}7`, { kind: "begin", title: "Finding references" });
  assert(!tracker.busy, "a request's own progress is not project loading");
  tracker.hold("startup", "enumerating");
  assert(tracker.busy);
  tracker.release("startup");
  tracker.serverStatus({ quiescent: false });
  assert(tracker.busy);
  tracker.serverStatus({ quiescent: true });
  assert(!tracker.busy);
  tracker.create("stuck");
  let message = "";
  await tracker.whenIdle({ timeoutMs: 50, onTimeout: () => new Error("still loading") })
    .catch((e) => message = e.message);
  assertEquals(message, "still loading");
  tracker.reset();
});

Deno.test("diagnostics: waiting for the version sent, or the next publish without versions", async () => {
  const store = new DiagnosticsStore();
  store.publish("file:///a", 1, [{ message: "old" }]);
  const pending = store.waitFor("file:///a", { version: 2, afterSerial: 1 }, { timeoutMs: 5_000 });
  store.publish("file:///a", 1, [{ message: "still old" }]);
  store.publish("file:///a", 2, [{ message: "new" }]);
  assertEquals((await pending)?.diagnostics, [{ message: "new" }]);
  const serial = store.serial("file:///b");
  const unversioned = store.waitFor("file:///b", { version: 5, afterSerial: serial }, {
    timeoutMs: 5_000,
  });
  store.publish("file:///b", null, []);
  assertEquals((await unversioned)?.version, null);
  assertEquals(
    await store.waitFor("file:///c", { version: 1, afterSerial: 0 }, { timeoutMs: 20 }),
    null,
  );
});

Deno.test("progress: watch reports what a busy server does until unsubscribed", () => {
  const tracker = new ProgressTracker();
  const heard: string[] = [];
  const unwatch = tracker.watch((text) => heard.push(text));
  tracker.create("load");
  tracker.progress("load", { kind: "begin", title: "Loading", percentage: 10 });
  tracker.progress("load", { kind: "report", percentage: 10 }); // nothing new: not repeated
  tracker.progress("load", { kind: "report", percentage: 50 });
  tracker.progress("load", { kind: "end" });
  unwatch();
  tracker.create("again");
  tracker.progress("again", { kind: "begin", title: "Again" });
  assertEquals(heard, ["Loading (10%)", "Loading (50%)"]);
});
