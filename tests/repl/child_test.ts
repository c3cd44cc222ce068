/**
 * The code-mode child as a compiled Sextant starts it: the executable itself with the hidden
 * first argument, its built-in permissions given up before any agent code runs. `deno compile`
 * cannot run here, so `deno run -A main.ts` stands in for an executable with every permission.
 * @module
 */
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { MAIN } from "../helpers/mcp.ts";
import { childCommand, DATA_LIMIT_MB, HEAP_MB } from "../../src/repl/host.ts";
import { REPL_CHILD_COMMAND } from "../../src/repl/child.ts";

Deno.test("repl child: a compiled executable starts itself with the hidden command", () => {
  const compiled = childCommand("/opt/bin/sextant");
  const own = compiled.args.slice(compiled.args.indexOf("/opt/bin/sextant"));
  assertEquals(own, ["/opt/bin/sextant", REPL_CHILD_COMMAND]);
  assertEquals(compiled.env.DENO_V8_FLAGS, `--max-old-space-size=${HEAP_MB}`);
  const deno = childCommand("/usr/bin/deno");
  const args = deno.args.slice(deno.args.indexOf("/usr/bin/deno") + 1);
  assertEquals(args[0], "run");
  for (const flag of ["--no-remote", "--no-npm", "--cached-only", "--no-prompt", "--deny-import"]) {
    assert(args.includes(flag), `${flag} in ${args.join(" ")}`);
  }
  // No permission flag at all, and no --location (which would give it origin storage).
  assert(!args.some((a) => /^--(allow-|location|A$)/.test(a)), args.join(" "));
  assert(args.at(-1)!.startsWith("data:application/javascript,"));
  if (Deno.build.os !== "windows") {
    assertEquals(deno.program, "sh");
    assertStringIncludes(deno.args[1]!, `ulimit -d ${DATA_LIMIT_MB * 1024}`);
  }
});

Deno.test("repl child: the hidden command drops every permission before agent code runs", async () => {
  const { env } = childCommand("/opt/bin/sextant");
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--no-config", MAIN, REPL_CHILD_COMMAND],
    env,
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const cell = "const tried = async (act: () => Promise<unknown>) => {\n" +
    "  try { await act(); return 'allowed'; } catch (e) { return (e as Error).name; }\n" +
    "};\n" +
    "export default [\n" +
    "  await tried(() => Deno.readTextFile('/etc/hostname')),\n" +
    "  await tried(() => fetch('https://example.com/')),\n" +
    "  await tried(() => new Deno.Command('true').output()),\n" +
    "].join()";
  const writer = child.stdin.getWriter();
  await writer.write(
    new TextEncoder().encode(
      JSON.stringify({
        type: "run",
        id: 1,
        url: `data:application/typescript;base64,${btoa(cell)}`,
        names: [],
        hasValue: true,
        facades: {},
        hidden: {},
        maxChars: 1000,
      }) + "\n",
    ),
  );
  const lines: Array<Record<string, unknown>> = [];
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  while (lines.length < 2) {
    const { value, done } = await reader.read();
    if (done) break;
    buffered += value;
    const parts = buffered.split("\n");
    buffered = parts.pop()!;
    for (const part of parts) lines.push(JSON.parse(part));
  }
  await writer.close();
  await reader.cancel();
  const status = await child.status;
  assertEquals(status.code, 0, "the child ends when its stdin closes");
  const [ready, done] = lines;
  assertEquals(ready?.type, "ready");
  const granted = Object.entries(ready!.permissions as Record<string, string>)
    .filter(([, state]) => state === "granted");
  assertEquals(granted, []);
  assertEquals(done?.value, "NotCapable,NotCapable,NotCapable");
});
