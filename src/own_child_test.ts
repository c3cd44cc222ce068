import { assert, assertEquals } from "../tests/helpers/assert.ts";
import { groupAlive } from "./process.ts";
import { OwnChild, ownChildArgs, readLines } from "./own_child.ts";

const COMMAND = { module: "/x/child.ts", flags: ["--quiet", "--allow-read"], command: "x-child" };

Deno.test("ownChildArgs: deno run of the module under the CLI, the hidden command compiled", () => {
  assertEquals(ownChildArgs(COMMAND, "/usr/bin/deno"), [
    "run",
    "--quiet",
    "--allow-read",
    "/x/child.ts",
  ]);
  assertEquals(ownChildArgs(COMMAND, "C:\\deno\\deno.exe")[0], "run");
  assertEquals(ownChildArgs(COMMAND, "/opt/bin/sextant"), ["x-child"]);
});

/** A deno child that answers each JSON line with `{echo: <the message>}`, or what `script` does. */
function echoChild(onLine: (line: string) => boolean | Promise<boolean>, script?: string) {
  const code = script ?? `
    const decoder = new TextDecoder();
    let pending = "";
    for await (const chunk of Deno.stdin.readable) {
      pending += decoder.decode(chunk, { stream: true });
      let newline;
      while ((newline = pending.indexOf("\\n")) !== -1) {
        const line = pending.slice(0, newline);
        pending = pending.slice(newline + 1);
        await Deno.stdout.write(new TextEncoder().encode(JSON.stringify({ echo: JSON.parse(line) }) + "\\n"));
      }
    }`;
  return new OwnChild(Deno.execPath(), ["eval", "--quiet", code], {
    name: "the echo process",
    stderrBytes: 4096,
    maxLineBytes: 1024,
    onLine,
  });
}

Deno.test("OwnChild: messages go out in order and come back line by line", async () => {
  const lines: string[] = [];
  let all: () => void = () => {};
  const received = new Promise<void>((resolve) => all = resolve);
  const child = echoChild((line) => {
    lines.push(line);
    if (lines.length === 3) all();
    return true;
  });
  // One message larger than a pipe's chunk crosses whole.
  const big = "b".repeat(900);
  child.send({ n: 1 });
  child.send({ n: 2, big });
  child.send({ n: 3 });
  await received;
  assertEquals(lines.map((l) => JSON.parse(l).echo.n), [1, 2, 3]);
  assertEquals(JSON.parse(lines[1]!).echo.big, big);
  child.close();
  const status = await child.exited;
  assertEquals(status.code, 0);
  assertEquals(child.stopped, null);
});

Deno.test("OwnChild: a line longer than the parent takes stops the child, its group gone", async () => {
  const child = echoChild(() => true);
  child.send({ big: "x".repeat(2000) });
  const status = await child.exited;
  assert(!status.success);
  assertEquals(child.stopped, "the echo process sent a message longer than 1024 bytes");
  assert(!groupAlive(child.pid));
});

Deno.test("OwnChild: kill stops the whole group, and sends nothing after", async () => {
  // The child starts a grandchild in its group, says so, and waits.
  let started: () => void = () => {};
  const ready = new Promise<void>((resolve) => started = resolve);
  const child = echoChild(
    () => {
      started();
      return true;
    },
    `new Deno.Command("sleep", { args: ["600"] }).spawn();
    await Deno.stdout.write(new TextEncoder().encode("{}\\n"));
    setInterval(() => {}, 1000);`,
  );
  await ready;
  assert(groupAlive(child.pid));
  await child.kill("enough");
  assertEquals(child.stopped, "enough");
  assert(!groupAlive(child.pid), "the grandchild outlived the kill");
  child.send({ late: true });
  assertEquals(child.unread, 0);
});

Deno.test("readLines: lines split across chunks and several in one chunk", async () => {
  const chunks = ["a", "b\nc\n", "", "d", "\n"].map((c) => new TextEncoder().encode(c));
  const stream = ReadableStream.from(chunks);
  const lines: string[] = [];
  await readLines(stream, (line) => void lines.push(line));
  assertEquals(lines, ["ab", "c", "d"]);
});
