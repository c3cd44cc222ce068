/**
 * A language server started ahead (src/lsp/client.ts `startAhead`, called by lsp/prestart.ts):
 * its handshake done before anything asks, taken once by the start with the same options, which
 * binds its own hooks; other options start their own; one never taken is stopped at shutdown; a
 * failed start ahead leaves the taker's own start to report the failure.
 * @module
 */
import { join } from "node:path";
import { assert, assertEquals, assertNotEquals, assertRejects } from "../helpers/assert.ts";
import { hasServer, liveInGroup, prestartChoiceIn, skipUnless } from "../helpers/lsp.ts";
import { serverGroupsOf } from "../helpers/lang.ts";
import { tempProject } from "../helpers/mcp.ts";
import {
  type ClientOptions,
  LspClient,
  startAhead,
  stopStartedAhead,
} from "../../src/lsp/client.ts";

const pyright = hasServer("pyright-langserver") && Deno.build.os === "linux";
const PROJECT = {
  "pyproject.toml": "[project]\nname = 'ahead'\n",
  "a.py": "import sys\nimport os\n\nprint(os, sys)\n",
};

/** The options prestart.ts starts the project's server with (no global settings). */
function aheadOptions(root: string): ClientOptions {
  const choice = prestartChoiceIn(root);
  assert("options" in choice, JSON.stringify(choice));
  return choice.options;
}

/** The process groups this process starts from now on (others may run from earlier tests). */
function groupsFromNow(): () => number[] {
  const before = new Set(serverGroupsOf(Deno.pid));
  return () => serverGroupsOf(Deno.pid).filter((group) => !before.has(group));
}

Deno.test({
  name: "a server started ahead goes once to the start with the same options, with its hooks",
  ignore: skipUnless(pyright, "pyright-langserver on Linux"),
  async fn() {
    await using p = await tempProject(PROJECT);
    const options = aheadOptions(p.root);
    const started: LspClient[] = [];
    try {
      const added = groupsFromNow();
      startAhead(options);
      const ahead = added();
      assertEquals(ahead.length, 1, "spawned at once");
      startAhead(options);
      assertEquals(added(), ahead, "not started twice");

      const other = await LspClient.start({ ...options, settings: { python: { other: true } } });
      started.push(other);
      assertNotEquals(other.pid, ahead[0], "other options start their own server");

      const edits: unknown[] = [];
      const taken = await LspClient.start({
        ...options,
        // The name a session reads from its settings (prestart.ts names the project by its folder).
        projectName: "a registered name",
        applyEdit: (edit) => {
          edits.push(edit);
          return Promise.resolve({ applied: true });
        },
      });
      started.push(taken);
      assertEquals(taken.pid, ahead[0], "the taker has the server started ahead");
      assert(taken.capabilities.referencesProvider, JSON.stringify(taken.capabilities));

      // The server's requests reach the taker's hooks, not the options it was started ahead with.
      const uri = `${options.rootUri}/a.py`;
      await taken.notify("textDocument/didOpen", {
        textDocument: { uri, languageId: "python", version: 1, text: PROJECT["a.py"] },
      });
      await taken.request("workspace/executeCommand", {
        command: "pyright.organizeimports",
        arguments: [uri],
      });
      assertEquals(edits.length, 1, "the taker's applyEdit was asked");

      const again = await LspClient.start(options);
      started.push(again);
      assertNotEquals(again.pid, ahead[0], "taken once");
      // Taken, it is its taker's: shutdown leaves it alone.
      await stopStartedAhead();
      assert(taken.alive && liveInGroup(ahead[0]!) > 0, "the taken server was stopped");
    } finally {
      await stopStartedAhead();
      for (const client of started) await client.stop();
    }
  },
});

Deno.test({
  name: "a server started ahead that nobody took is stopped with everything it started",
  ignore: skipUnless(pyright, "pyright-langserver on Linux"),
  async fn() {
    await using p = await tempProject(PROJECT);
    const added = groupsFromNow();
    startAhead(aheadOptions(p.root));
    const [group] = added();
    assert(group !== undefined && liveInGroup(group) > 0);
    await stopStartedAhead();
    assertEquals(liveInGroup(group), 0);
    assertEquals(added(), []);
  },
});

Deno.test("a start ahead that failed leaves the taker's own start to report it", async () => {
  await using p = await tempProject({});
  const options: ClientOptions = {
    id: "missing",
    command: join(p.root, "no-such-server"),
    args: [],
    root: p.root,
    rootUri: `file://${p.root}`,
    projectName: "missing",
  };
  startAhead(options);
  const error = await assertRejects(() => LspClient.start(options));
  assert(error instanceof Deno.errors.NotFound, String(error));
  await stopStartedAhead();
});
