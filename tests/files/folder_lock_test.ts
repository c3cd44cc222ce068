/**
 * The locks that keep Sextant processes from losing each other's edits cannot be held by anyone
 * else, and a lock that stays taken fails the write instead of stalling it. Real processes:
 * - another user (`nobody`, via setpriv; Linux as root only) who can read the project holds a
 *   `flock` on every folder of it, and edits there still go through;
 * - a process of the same user holds the lock of a folder: edits there fail, after the lock's
 *   wait, with an error that says so (they wait without blocking a thread: before, each stuck
 *   edit blocked one for good and never answered).
 * @module
 */
import { join } from "node:path";
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { call, connect, tempProject } from "../helpers/mcp.ts";

const asRoot = Deno.build.os === "linux" && Deno.uid() === 0;
if (!asRoot) {
  console.log("folder lock test (another user) skipped: it needs Linux and root, to run as nobody");
}

/** The lock wait of src/edit/folder_lock.ts, stated so the test reads alone (ms). */
const LOCK_WAIT_MS = 20_000;

/** A child of `command` that holds its locks until its stdin closes. */
function holder(command: string, args: string[]): {
  ready: Promise<void>;
  release(): Promise<void>;
} {
  const child = new Deno.Command(command, {
    args,
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  const ready = (async () => {
    let seen = "";
    while (!seen.includes("locked")) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the lock holder ended early: ${seen}`);
      seen += value;
    }
  })();
  return {
    ready,
    async release() {
      await child.stdin.close().catch(() => {});
      await child.status;
      await reader.cancel().catch(() => {});
    },
  };
}

Deno.test({
  name: "folder locks: another user who can read the project cannot stall its edits",
  ignore: !asRoot,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using project = await tempProject({
      "a.txt": "alpha\n",
      ".sextant/project.jsonc": '{ "tool_timeout": 15 }\n',
    });
    const runtime = await Deno.makeTempDir({ prefix: "sextant-rt-" });
    await Deno.chmod(project.root, 0o755);
    // nobody takes an exclusive flock on the project folder, and on every file it can read there,
    // then waits; each `flock` runs the next, so all are held at once.
    const targets = [project.root, join(project.root, "a.txt")];
    const chain = targets.reduceRight(
      (inner, path) => `flock -x -n '${path}' sh -c '${inner.replaceAll("'", "'\\''")}'`,
      "echo locked; cat > /dev/null",
    );
    const nobody = holder("setpriv", [
      "--reuid=nobody",
      "--regid=nogroup",
      "--clear-groups",
      "sh",
      "-c",
      chain,
    ]);
    await nobody.ready;
    const server = await connect(project.root, [], { XDG_RUNTIME_DIR: runtime });
    try {
      const edited = await call(server.client, "replace_content", {
        relative_path: "a.txt",
        needle: "alpha",
        repl: "beta",
        mode: "literal",
      });
      assert(!edited.isError, edited.text);
      assertEquals(await Deno.readTextFile(join(project.root, "a.txt")), "beta\n");
    } finally {
      await server.close();
      await nobody.release();
      await Deno.remove(runtime, { recursive: true }).catch(() => {});
    }
  },
});

Deno.test({
  name: "folder locks: a lock held too long fails the edit with a clear error and answers",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const files = Array.from({ length: 24 }, (_, i) => [`f${i}.txt`, "beta\n"]);
    await using project = await tempProject({ "a.txt": "alpha\n", ...Object.fromEntries(files) });
    const runtime = await Deno.makeTempDir({ prefix: "sextant-rt-" });
    const server = await connect(project.root, [], { XDG_RUNTIME_DIR: runtime });
    // The first edit makes the lock file; then this process holds every lock file there is.
    const first = await call(server.client, "replace_content", {
      relative_path: "a.txt",
      needle: "alpha",
      repl: "beta",
      mode: "literal",
    });
    assert(!first.isError, first.text);
    const lockFiles = [...Deno.readDirSync(join(runtime, "sextant", "locks"))]
      .map((entry) => join(runtime, "sextant", "locks", entry.name));
    assert(lockFiles.length > 0, "no lock file in the private runtime folder");
    const held: Deno.FsFile[] = [];
    try {
      for (const path of lockFiles) {
        const file = await Deno.open(path, { read: true, write: true });
        held.push(file);
        assert(await file.tryLock(true), `${path} was locked already`);
      }
      const started = Date.now();
      // Different files of one folder: each edit waits for the folder's lock at the same time.
      const stuck = await Promise.all(
        files.map(([name]) =>
          call(server.client, "replace_content", {
            relative_path: name,
            needle: "beta",
            repl: "gamma",
            mode: "literal",
          })
        ),
      );
      for (const answer of stuck) {
        assert(answer.isError, answer.text);
        assertStringIncludes(answer.text, "stayed locked by another Sextant process");
      }
      assert(Date.now() - started >= LOCK_WAIT_MS - 1000, "an edit gave up before its wait");
      for (const [name] of files) {
        assertEquals(await Deno.readTextFile(join(project.root, name!)), "beta\n");
      }
    } finally {
      for (const file of held) file.close();
      await server.close();
      await Deno.remove(runtime, { recursive: true }).catch(() => {});
    }
  },
});
