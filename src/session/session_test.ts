import { assert, assertEquals, assertThrows } from "../../tests/helpers/assert.ts";
import { loadSettings } from "../config/load.ts";
import { Project } from "../project/project.ts";
import type { ProjectHost, ProjectServices } from "../project_host.ts";
import { Session } from "./session.ts";

/** A host that records what the session asks of it (the session's own logic is under test). */
function recordingHost() {
  const calls: string[] = [];
  const host = {
    servicesFor(project: Project) {
      calls.push(`servicesFor ${project.name}`);
      return { pool: { disposed: false }, lastUsed: 0 } as unknown as ProjectServices;
    },
    release(project: Project) {
      calls.push(`release ${project.name}`);
      return Promise.resolve();
    },
    stop(project: Project) {
      calls.push(`stop ${project.name}`);
      return Promise.resolve();
    },
    dispose() {
      calls.push("dispose");
      return Promise.resolve();
    },
  } as unknown as ProjectHost;
  return { host, calls };
}

async function withProject(fn: (project: Project) => Promise<void>) {
  const root = Deno.realPathSync(await Deno.makeTempDir({ prefix: "sextant-host-" }));
  try {
    const settings = await loadSettings({ projectRoot: root, globalFile: null });
    await fn(Project.open(root, settings, "p"));
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test("session: a host factory is called on first use, once, and its host ends with the session", async () => {
  await withProject(async (project) => {
    const { host, calls } = recordingHost();
    let made = 0;
    const session = new Session({
      settings: project.settings,
      tools: [],
      project,
      host: () => (made++, host),
    });
    assertEquals(made, 0, "no host before a tool needs one");
    const services = session.services(project);
    assert(session.services(project) === services, "held services are reused");
    assertEquals(made, 1);
    await session.dispose();
    assertEquals(calls, ["servicesFor p", "release p", "dispose"]);
  });
});

Deno.test("session: a shared host is released from, never disposed", async () => {
  await withProject(async (project) => {
    const { host, calls } = recordingHost();
    const session = new Session({ settings: project.settings, tools: [], project, host });
    session.services(project);
    await session.dispose();
    assertEquals(calls, ["servicesFor p", "release p"]);
  });
});

Deno.test("session: without a host, asking for project services fails clearly", async () => {
  await withProject(async (project) => {
    const session = new Session({ settings: project.settings, tools: [], project });
    assertThrows(() => session.services(project), "SessionOptions.host");
    await session.dispose();
  });
});
