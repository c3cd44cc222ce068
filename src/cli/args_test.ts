import { assertEquals, assertThrows } from "../../tests/helpers/assert.ts";
import { parseCommandLine } from "./args.ts";

Deno.test("'sextant dashboard' takes --open and nothing else", () => {
  const plain = parseCommandLine(["dashboard"]);
  assertEquals(plain.command, "dashboard");
  assertEquals(plain.open, undefined);
  assertEquals(parseCommandLine(["dashboard", "--open"]).open, true);
  assertThrows(() => parseCommandLine(["dashboard", "now"]), "Unexpected argument 'now'");
});

Deno.test("the command line reads as node:util's parseArgs read it, without node:util", async () => {
  const { parseArgs } = await import("node:util");
  const node = (argv: string[]) => {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        project: { type: "string" },
        "no-project": { type: "boolean", default: false },
        mode: { type: "string", multiple: true },
        "log-level": { type: "string" },
        "enable-shell": { type: "boolean", default: false },
        standalone: { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
        version: { type: "boolean", short: "V", default: false },
      },
    });
    return { values, positionals };
  };
  const cases = [
    [],
    ["--project", "/p", "--log-level", "error"],
    ["--project=/p", "--mode", "planning", "--mode=one-shot"],
    ["serve", "--enable-shell", "--standalone"],
    ["service", "status"],
    ["-h"],
    ["-hV"],
    ["--project", "a=b", "--", "doctor"],
  ];
  for (const argv of cases) {
    const ours = parseCommandLine(argv);
    const theirs = node(argv);
    assertEquals(ours.project, theirs.values.project, argv.join(" "));
    assertEquals(ours.modes, theirs.values.mode, argv.join(" "));
    assertEquals(ours.logLevel, theirs.values["log-level"], argv.join(" "));
    assertEquals(ours.enableShell, theirs.values["enable-shell"], argv.join(" "));
    assertEquals(ours.standalone, theirs.values.standalone, argv.join(" "));
    const command = theirs.values.help
      ? "help"
      : theirs.values.version
      ? "version"
      : theirs.positionals[0] ?? "serve";
    assertEquals(ours.command, command, argv.join(" "));
  }
  // What both refuse.
  for (
    const argv of [["--nope"], ["-x"], ["--project"], ["--standalone=yes"], ["--project", "-h"]]
  ) {
    assertThrows(() => node(argv));
    assertThrows(() => parseCommandLine(argv));
  }
  assertThrows(() => parseCommandLine(["--nope"]), "Unknown option '--nope'");
  assertThrows(() => parseCommandLine(["--project"]), "Option '--project' needs a value");
  assertThrows(
    () => parseCommandLine(["--standalone=yes"]),
    "Option '--standalone' takes no value",
  );
  assertThrows(() => parseCommandLine(["-x"]), "Unknown option '-x'");
  // After `--`, words are not options; a lone `-` is a word.
  assertEquals(node(["--", "--project"]).positionals, ["--project"]);
  assertThrows(
    () => parseCommandLine(["serve", "--", "--project"]),
    "Unexpected argument '--project'",
  );
  assertThrows(() => parseCommandLine(["-"]), "Unknown command '-'");
});
