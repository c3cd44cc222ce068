/**
 * The Ada tools: the spec parser and stub generator on real-world spec syntax, GPR and unit
 * naming, get_spec, alire_info, and — with GNAT installed — gprbuild errors through
 * check_project and generated bodies that compile.
 * @module
 */
import { join } from "node:path";
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { type FileTree, toolHarness } from "../helpers/tool_ctx.ts";
import { parseGpr } from "../../src/toolchain/ada/gpr.ts";
import { isSubprogram, type SubprogramDecl, type UnitDecl } from "../../src/toolchain/ada/spec.ts";
import { parseSpec } from "../../src/toolchain/ada/spec_parser.ts";
import { generateBody } from "../../src/toolchain/ada/stub.ts";
import { readUnitHeader, unitFileName, unitOfFileName } from "../../src/toolchain/ada/units.ts";
import { findExecutable } from "../../src/executables.ts";
import type { Tool } from "../../src/tools/tool.ts";
import { alireInfo } from "../../src/tools/ada/alire_info.ts";
import { getSpec } from "../../src/tools/ada/get_spec.ts";
import { stubBody } from "../../src/tools/ada/stub_body.ts";
import { checkProject } from "../../src/tools/toolchain/check_project.ts";

const FIXTURE = new URL("../../fixtures/ada/", import.meta.url).pathname;

function fixtureTree(): FileTree {
  const tree: FileTree = {};
  const walk = (dir: string, prefix: string) => {
    for (const entry of Deno.readDirSync(dir)) {
      if (entry.name === "obj" || entry.name === "bin") continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory) walk(path, `${prefix}${entry.name}/`);
      else tree[`${prefix}${entry.name}`] = Deno.readFileSync(path);
    }
  };
  walk(FIXTURE, "");
  return tree;
}

const gprbuild = findExecutable("gprbuild", { useToolCache: false });
const noGnat = gprbuild === null &&
  (console.log("skipping: gprbuild (GNAT) is not installed"), true);

// deno-lint-ignore no-explicit-any
type Json = any;

async function callJson(
  h: { call(tool: Tool, args: Record<string, unknown>): Promise<string> },
  tool: Tool,
  args: Record<string, unknown> = {},
): Promise<Json> {
  return JSON.parse(await h.call(tool, args));
}

/** Compile Ada sources in `dir` (semantic check and code generation) with gprbuild. */
async function compile(
  dir: string,
  gpr: string,
  units: string[],
): Promise<{ ok: boolean; output: string }> {
  const out = await new Deno.Command(gprbuild!, {
    args: ["-p", "-q", "-c", "-u", "-P", gpr, ...units, "-cargs:Ada", "-gnatef"],
    cwd: dir,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (b: Uint8Array) => new TextDecoder().decode(b);
  return { ok: out.success, output: decode(out.stdout) + decode(out.stderr) };
}

function subprograms(decls: UnitDecl["items"]): SubprogramDecl[] {
  return decls.flatMap((
    d,
  ) => (isSubprogram(d) ? [d] : d.kind === "entry" ? [] : subprograms(d.items)));
}

// ---- the spec parser and stub generator -------------------------------------------------------

const TRICKY_SPEC = `with Ada.Finalization;   -- context clause
limited with Other.Unit;
private with Ada.Strings;

package Tricky.Child is
   pragma Preelaborate;

   type Rec is record
      Name : String (1 .. 10) := "procedure;";  --  strings hold keywords
      case Flag : Boolean is
         when True => X : Integer;
         when False => null;
      end case;
   end record;

   type Empty is null record;
   C : constant Character := ';';

   procedure Multi
     (A : in     Integer;  -- first
      B :    out Float;    -- second ; with semicolon
      C : access constant String := null);

   overriding function "=" (L, R : Rec) return Boolean;

   not overriding procedure Q (X : Rec'Class; Y : Character := 'y') with Inline;

   function Abs_Value (X : Integer) return Natural is (abs X);
   procedure Nothing (X : Integer) is null;
   function Abstract_One (X : Rec) return Integer is abstract;
   procedure Renamed (X : Integer) renames Multi;
   procedure Imported (X : Integer) with Import, Convention => C;
   procedure Pragma_Imported;
   pragma Import (C, Pragma_Imported, "pi");

   function Later return Integer;

   package Inner is
      procedure Deep (N : Natural);
   end Inner;

   package Inst is new Ada.Finalization.Controlled_Thing (Integer);

   task Single_Task;

private
   type Hidden;
   type Hidden_Access is access Hidden;
   function Later return Integer is (42);
   procedure Private_One;
end Tricky.Child;
`;

Deno.test("spec parser: what needs a body and what is completed otherwise", () => {
  const spec = parseSpec(TRICKY_SPEC);
  assert(spec.unit && !isSubprogram(spec.unit));
  const unit = spec.unit as UnitDecl;
  assertEquals(unit.name, "Tricky.Child");
  const byName = new Map<string, SubprogramDecl>();
  for (const s of subprograms(unit.items)) if (!byName.has(s.name)) byName.set(s.name, s);
  const needs = [...byName.values()].filter((s) => s.needsBody).map((s) => s.name);
  assertEquals(needs, ["Multi", '"="', "Q", "Deep", "Private_One"]);
  assertEquals(byName.get("Abs_Value")?.reason, "expression function");
  assertEquals(byName.get("Nothing")?.reason, "null procedure");
  assertEquals(byName.get("Abstract_One")?.reason, "abstract");
  assertEquals(byName.get("Renamed")?.reason, "renaming");
  assertEquals(byName.get("Imported")?.reason, "imported (Import aspect)");
  assertEquals(byName.get("Pragma_Imported")?.reason, "imported (pragma Import)");
  assertStringIncludes(byName.get("Later")!.reason!, "completed in the spec");
  assertEquals(unit.incompleteTypes, ["type Hidden"]);
  // The profile is cut verbatim, comments included, without aspects.
  assertStringIncludes(byName.get("Multi")!.profile, "-- second ; with semicolon");
  assertEquals(
    byName.get("Q")!.profile,
    "not overriding procedure Q (X : Rec'Class; Y : Character := 'y')",
  );
});

Deno.test("stub generator: bodies for subprograms, nested packages, tasks and Taft types", () => {
  const body = generateBody(parseSpec(TRICKY_SPEC));
  assertEquals(body.unit, "Tricky.Child");
  assertEquals(body.stubs, 6); // 5 subprograms + the task
  assert(body.code.startsWith("package body Tricky.Child is\n"));
  assert(body.code.trimEnd().endsWith("end Tricky.Child;"));
  assertStringIncludes(body.code, "   type Hidden is null record;\n");
  assertStringIncludes(
    body.code,
    `   procedure Multi
     (A : in     Integer;  -- first
      B :    out Float;    -- second ; with semicolon
      C : access constant String := null) is
   begin
      raise Program_Error with "not implemented";
   end Multi;`,
  );
  assertStringIncludes(
    body.code,
    `   overriding function "=" (L, R : Rec) return Boolean is
   begin
      return raise Program_Error with "not implemented";
   end "=";`,
  );
  assertStringIncludes(
    body.code,
    "   package body Inner is\n\n      procedure Deep (N : Natural) is",
  );
  assertStringIncludes(body.code, "   task body Single_Task is\n");
  assert(!body.code.includes("Inline"), "aspects stay in the spec");
  assertEquals(body.skipped.map((s) => s.name), [
    "Abs_Value",
    "Nothing",
    "Abstract_One",
    "Renamed",
    "Imported",
    "Pragma_Imported",
    "Later", // the declaration, completed by...
    "Later", // ...the expression function in the private part
  ]);
});

Deno.test("stub generator: library subprograms, generics, protected entries, Elaborate_Body", () => {
  const proc = generateBody(parseSpec("with X;\nprocedure Run (Count : Positive := 1);\n"));
  assertEquals(
    proc.code,
    'procedure Run (Count : Positive := 1) is\nbegin\n   raise Program_Error with "not implemented";\nend Run;\n',
  );
  const generic = generateBody(parseSpec(
    "generic\n   type T is private;\n   with function Image (X : T) return String;\n" +
      "procedure Show (X : T);\n",
  ));
  assert(generic.code.startsWith("procedure Show (X : T) is"));
  assertStringIncludes(generic.notes.join(" "), "generic formal part");
  const prot = generateBody(parseSpec(`package P is
   protected type Buffer (Size : Positive) is
      overriding entry Put (Item : Integer);
      entry Get (1 .. 4) (Item : out Integer);
      function Count return Natural;
   private
      N : Natural := 0;
   end Buffer;
end P;
`));
  assertStringIncludes(prot.code, "   protected body Buffer is\n");
  assertStringIncludes(prot.code, "      entry Put (Item : Integer) when True is\n");
  assertStringIncludes(
    prot.code,
    "      entry Get (for I in 1 .. 4) (Item : out Integer) when True is\n",
  );
  const elaborate = generateBody(
    parseSpec("package E is\n   pragma Elaborate_Body;\n   X : Integer;\nend E;\n"),
  );
  assertEquals(elaborate.code, "package body E is\n\nend E;\n");
  const none = generateBody(
    parseSpec("package Consts is\n   Pi : constant := 3.14;\nend Consts;\n"),
  );
  assertEquals(none.code, "");
  assertStringIncludes(none.notes.join(" "), "forbids a body");
  const spark = generateBody(parseSpec(
    "package S with SPARK_Mode, Abstract_State => (State with Synchronous) is\n" +
      "   procedure Go;\nend S;\n",
  ));
  assertStringIncludes(spark.code, "package body S with\n   Refined_State => (State => null)\nis");
});

Deno.test("GPR reader: scenario variables, case constructs, naming, concatenation", () => {
  const text = `with "shared.gpr";
library project Lib is
   Mode := external ("LIB_MODE", "debug");
   for Source_Dirs use ("src/**") & ("gen");
   for Library_Name use "lib";
   case Mode is
      when "debug" => for Object_Dir use "obj/debug";
      when others => for Object_Dir use "obj/" & Mode;
   end case;
   package Naming is
      for Spec_Suffix ("Ada") use ".1.ada";
      for Body ("Lib.Special") use "special_body.ada";
   end Naming;
   package Compiler is
      for Default_Switches ("Ada") use ("-gnat2022");
   end Compiler;
end Lib;`;
  const debug = parseGpr(text);
  assertEquals(debug.name, "Lib");
  assertEquals(debug.qualifier, "library");
  assertEquals(debug.withs, ["shared.gpr"]);
  assertEquals(debug.sourceDirs, ["src/**", "gen"]);
  assertEquals(debug.objectDir, "obj/debug");
  assertEquals(debug.adaVersion, "Ada2022");
  assertEquals(debug.naming.specSuffix, ".1.ada");
  assertEquals(debug.naming.bodyFiles["lib.special"], "special_body.ada");
  assertEquals(parseGpr(text, { LIB_MODE: "release" }).objectDir, "obj/release");
});

Deno.test("unit naming: GNAT's convention, both ways, and unit headers", () => {
  assertEquals(unitFileName("Parent.Child", "spec"), "parent-child.ads");
  assertEquals(unitFileName("Parent.Child", "body"), "parent-child.adb");
  assertEquals(unitOfFileName("parent-child.adb"), { unit: "parent.child", part: "body" });
  assertEquals(unitOfFileName("readme.md"), null);
  const header = readUnitHeader(
    "with A.B, C;\nlimited with D;\nprivate package P.Q is\nend P.Q;\n",
  )!;
  assertEquals([header.unit, header.part], ["P.Q", "spec"]);
  assertEquals(header.withs, [
    { unit: "A.B", kind: "with" },
    { unit: "C", kind: "with" },
    { unit: "D", kind: "limited with" },
  ]);
  assertEquals(
    readUnitHeader("separate (P)\nprocedure Inner is begin null; end;")?.unit,
    "P.Inner",
  );
  assertEquals(readUnitHeader("procedure Main is begin null; end Main;")?.part, "body");
  assertEquals(readUnitHeader("function F return Integer;")?.part, "spec");
});

// ---- the tools --------------------------------------------------------------------------------

Deno.test("get_spec: body to spec, spec to body, unit names, and subprograms by line", async () => {
  await using h = await toolHarness(fixtureTree());
  const spec = await callJson(h, getSpec, { relative_path: "src/utils.adb" });
  assertEquals([spec.found, spec.unit, spec.specFile, spec.target], [
    true,
    "Utils",
    "src/utils.ads",
    "spec",
  ]);
  const child = await callJson(h, getSpec, { unit: "Utils.Text" });
  assertEquals([child.specFile, child.bodyFile], ["src/utils-text.ads", "src/utils-text.adb"]);
  // Line 16 of the body is inside Trim: its declaration is on line 6 of the spec.
  const trim = await callJson(h, getSpec, { relative_path: "src/utils-text.adb", line: 16 });
  assertEquals([trim.line, trim.column], [6, 4]);
  assertStringIncludes(trim.preview, "procedure Trim");
  const back = await callJson(h, getSpec, { relative_path: "src/utils-text.ads", line: 7 });
  assertEquals([back.target, back.line], ["body", 10]);
  const byName = await callJson(h, getSpec, { unit: "Utils", name_path: "Utils/Double" });
  assertEquals(byName.line, 5);
  const missing = await callJson(h, getSpec, { relative_path: "src/geometry.ads" });
  assertEquals([missing.found, missing.expectedFile], [false, "src/geometry.adb"]);
  assertStringIncludes(missing.hint, "stub_body");
  const none = await h.run(getSpec, {});
  assert(none.isError);
});

Deno.test("alire_info: crate, version, dependencies and build profile", async () => {
  await using h = await toolHarness(fixtureTree());
  const info = await callJson(h, alireInfo);
  assertEquals([info.isAlireProject, info.crateName, info.version], [true, "demo", "0.2.1"]);
  assertEquals(info.dependencies, [
    { name: "gnat", version: ">=12" },
    { name: "aunit", version: "^24.0.0" },
    { name: "gnatcoll", version: "^24.0.0" },
  ]);
  assertEquals(info.buildProfile, "validation");
  assertEquals(info.projectFiles, ["demo.gpr"]);
  await using plain = await toolHarness({ "a.gpr": "project A is end A;" });
  assertEquals(await callJson(plain, alireInfo), { isAlireProject: false });
});

Deno.test("stub_body: returns the body as text when the .adb exists, writes it when asked", async () => {
  await using h = await toolHarness(fixtureTree());
  const before = await h.read("src/utils.adb");
  const kept = await callJson(h, stubBody, { relative_path: "src/utils.ads" });
  assertEquals([kept.generated, kept.written, kept.stubs], [true, false, 2]);
  assertStringIncludes(kept.message, "overwrite=true");
  assertEquals(await h.read("src/utils.adb"), before);
  const replaced = await callJson(h, stubBody, { relative_path: "src/utils.ads", overwrite: true });
  assertEquals(replaced.written, true);
  assertEquals(await h.read("src/utils.adb"), replaced.stubCode);
  const notSpec = await h.run(stubBody, { relative_path: "src/main.adb" });
  assert(notSpec.isError);
  assertStringIncludes(notSpec.text, "not a spec");
});

Deno.test({
  name: "check_project: the Ada build error from gprbuild",
  ignore: noGnat,
  async fn() {
    await using h = await toolHarness(fixtureTree());
    const result = await callJson(h, checkProject);
    assertEquals(result.checks[0].toolchain, "ada");
    assertStringIncludes(result.checks[0].command, "gprbuild -p -q -P demo.gpr");
    assertEquals(result.summary.error, 1);
    const [d] = result.diagnostics;
    assertEquals([d.file, d.line, d.column, d.source], ["src/utils.adb", 9, 27, "gprbuild"]);
    assertStringIncludes(d.message, 'expected type "Standard.Integer"');
  },
});

Deno.test({
  name: "stub_body: generated bodies compile with gprbuild, and the project builds",
  ignore: noGnat,
  async fn() {
    await using h = await toolHarness(fixtureTree());
    const geometry = await callJson(h, stubBody, { relative_path: "src/geometry.ads" });
    assertEquals([geometry.written, geometry.targetFile], [true, "src/geometry.adb"]);
    assertEquals(geometry.stubs, 17);
    assertEquals(geometry.skipped.length, 6);
    const stacks = await callJson(h, stubBody, { relative_path: "src/stacks.ads" });
    assertEquals(stacks.written, true);
    const built = await compile(h.root, "demo.gpr", ["geometry.adb", "stacks.adb"]);
    assert(built.ok, built.output);
    assert(!/error:/.test(built.output), built.output);
    // With the broken body replaced by stubs, the whole project builds.
    await callJson(h, stubBody, { relative_path: "src/utils.ads", overwrite: true });
    const check = await callJson(h, checkProject);
    assertEquals([check.ok, check.summary.error], [true, 0]);
  },
});
