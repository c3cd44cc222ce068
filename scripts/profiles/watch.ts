/**
 * What the project's file watcher costs: the recursive watchers and inotify watches a served
 * project holds once the declaration index, the change feed and an LSP forwarder all listen
 * (Linux: counted in /proc/self/fdinfo), the time to start watching, and the index's settle with
 * nothing changed (its barrier: a marker touched, its event awaited), wall and CPU.
 *
 *     deno run -A scripts/profiles/watch.ts [--folders 2000] [--runs 300]
 * @module
 */
import { parseArgs } from "node:util";
import process from "node:process";
import { loadSettings } from "../../src/config/load.ts";
import { ProjectWatcher } from "../../src/lsp/watcher.ts";
import { Project } from "../../src/project/project.ts";
import { ProjectWatch } from "../../src/project/project_watch.ts";
import { ProjectServices } from "../../src/project_host.ts";
import { inotifyWatches, inotifyWatchesSettled } from "../../tests/helpers/inotify.ts";

const { values } = parseArgs({
  options: {
    folders: { type: "string", default: "2000" },
    runs: { type: "string", default: "300" },
  },
});
const folders = Number(values.folders);
const runs = Number(values.runs);

function inotifyInstances(): number {
  let count = 0;
  for (const entry of Deno.readDirSync("/proc/self/fd")) {
    try {
      if (Deno.readLinkSync(`/proc/self/fd/${entry.name}`) === "anon_inode:inotify") count++;
    } catch { /* the listing's own fd */ }
  }
  return count;
}

const median = (v: number[]) => [...v].sort((a, b) => a - b)[v.length >> 1]!;

const root = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "sextant-watch-profile-" }));
try {
  // Folders of ten small files each, a tenth of them under node_modules (watched all the same).
  for (let i = 0; i < folders; i++) {
    const folder = i % 10 === 0 ? `${root}/node_modules/p${i}` : `${root}/src/m${i}`;
    Deno.mkdirSync(folder, { recursive: true });
    for (let j = 0; j < (i % 10 === 0 ? 1 : 10); j++) {
      Deno.writeTextFileSync(`${folder}/f${j}.ts`, `export function f${i}_${j}() {}\n`);
    }
  }
  const project = Project.open(root, await loadSettings({ projectRoot: root, globalFile: null }));
  const services = new ProjectServices(project);
  const watchesBefore = inotifyWatches();
  let started = performance.now();
  await services.declarations.ready();
  const build = performance.now() - started;
  started = performance.now();
  services.watch.start(); // started by the build: nothing to do
  await services.changes.settle();
  const forwarder = new ProjectWatcher(services.watch, () => {});
  const joined = performance.now() - started;
  console.log(
    `${folders} folders: with the index, the change feed and an LSP forwarder listening: ` +
      `${ProjectWatch.open} recursive watcher(s), ${inotifyInstances()} inotify instance(s), ` +
      `${inotifyWatches() - watchesBefore} inotify watches; index build with its watcher ` +
      `${build.toFixed(0)} ms, the feed and the forwarder joining ${joined.toFixed(2)} ms`,
  );
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const before = process.cpuUsage();
    const t = performance.now();
    await services.declarations.ready();
    wall.push(performance.now() - t);
    const used = process.cpuUsage(before);
    cpu.push((used.user + used.system) / 1000);
  }
  console.log(
    `index settle (barrier), nothing changed: median ${median(wall).toFixed(3)} ms, min ` +
      `${Math.min(...wall).toFixed(3)} ms, CPU median ${median(cpu).toFixed(3)} ms (${runs} runs)`,
  );
  await forwarder.close();
  await services.dispose();
  console.log(
    `disposed: ${ProjectWatch.open} recursive watcher(s), ` +
      `${(await inotifyWatchesSettled(watchesBefore)) - watchesBefore} inotify watches left`,
  );
} finally {
  Deno.removeSync(root, { recursive: true });
}
