/**
 * The dashboard page: one HTML document with its style and script inlined (page_script.ts),
 * served from the executable itself (no CDN, no build step). The page's CSRF token is set in
 * a meta tag; it is hex, so it needs no escaping.
 * @module
 */
import { PAGE_SCRIPT } from "./page_script.ts";

const STYLE = `
body { font: 14px system-ui, sans-serif; margin: 0; color: #222; background: #f6f7f9; }
header { background: #243447; color: #fff; padding: 10px 16px; display: flex; gap: 16px;
  align-items: center; }
header h1 { font-size: 17px; margin: 0; }
header span { flex: 1; opacity: .85; }
header em { font-style: normal; font-size: 12px; opacity: .85; }
header em.error { color: #ffb4ab; opacity: 1; }
main { display: grid; grid-template-columns: repeat(auto-fit, minmax(560px, 1fr)); gap: 12px;
  padding: 12px; }
section { background: #fff; border: 1px solid #dde1e6; border-radius: 6px; padding: 10px 12px;
  overflow: auto; }
section.wide { grid-column: 1 / -1; }
h2 { font-size: 15px; margin: 0 0 8px; }
h3 { font-size: 13px; margin: 10px 0 4px; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 3px 6px; border-bottom: 1px solid #eef0f2; vertical-align: top; }
thead td, th { font-weight: 600; color: #555; }
code { font-size: 12px; word-break: break-all; }
button { cursor: pointer; }
#result { padding: 6px 16px; min-height: 1.2em; }
#result.ok { background: #e6f4ea; } #result.error { background: #fde8e8; }
tr.failed td { color: #b3261e; } tr.running td { background: #fff8e1; }
.state.ready { color: #1e7e34; } .state.crashed { color: #b3261e; }
.state.indexing, .state.starting { color: #b06f00; }
.muted { color: #888; }
#log-lines { height: 260px; overflow: auto; font: 12px monospace; background: #fbfbfb; }
.log.warn { color: #8a5a00; } .log.error { color: #b3261e; } .log.debug { color: #888; }
textarea { width: 100%; box-sizing: border-box; font: 12px monospace; }
#notes { white-space: pre-wrap; font: 12px monospace; background: #fffbe6; padding: 6px; }
#chart { width: 100%; height: 170px; }
#project-text { background: #f4f4f4; padding: 6px; min-height: 2em; }
`;

const BODY = `
<header><h1>Sextant</h1><span id="service">connecting…</span>
<em id="connection">connecting</em><button id="stop">Stop service</button></header>
<div id="result" role="status"></div>
<main>
<section id="sessions"><h2>Sessions (<span id="sessions-count">0</span>)</h2>
<table><thead><tr><th>id</th><th>client</th><th>project</th><th>context · modes</th>
<th>started</th><th>last call</th><th>calls</th><th></th></tr></thead><tbody></tbody></table>
</section>
<section id="projects"><h2>Projects and language servers</h2><div id="projects-list"></div>
</section>
<section id="calls" class="wide"><h2>Tool calls</h2>
<table><thead><tr><th>#</th><th>session</th><th>tool</th><th>arguments</th><th>started</th>
<th>duration</th><th>answer chars</th><th>error</th><th>not analysed</th><th></th></tr></thead>
<tbody></tbody></table><pre id="notes" hidden></pre>
</section>
<section id="stats"><h2>Per tool, last hour</h2>
<table><thead><tr><th>tool</th><th>calls</th><th>errors</th><th>p50</th><th>p95</th></tr></thead>
<tbody></tbody></table>
<h3>Latency per minute (p50 blue, p95 orange; log scale)</h3>
<canvas id="chart" width="640" height="170"></canvas>
</section>
<section id="log"><h2>Log <select id="log-level"><option>debug</option>
<option selected>info</option><option>warn</option><option>error</option></select></h2>
<div id="log-lines"></div></section>
<section id="memories"><h2>Memories of <select id="project"></select></h2>
<ul id="memory-list"></ul>
<input id="memory-name" placeholder="memory name, e.g. notes/auth" size="40">
<button id="memory-save">Save</button> <button id="memory-delete">Delete</button>
<textarea id="memory-text" rows="10"></textarea>
</section>
<section id="config"><h2>Configuration</h2>
<p id="settings-error" class="muted"></p>
<table id="effective"><thead><tr><th>setting</th><th>effective value</th><th>from</th></tr>
</thead><tbody></tbody></table>
<h3>Global file: <span id="global-path"></span></h3>
<textarea id="global-text" rows="8"></textarea><button id="global-save">Save global file</button>
<h3>Project file (read only): <span id="project-path"></span></h3><pre id="project-text"></pre>
</section>
</main>
`;

/** The page for a signed-in browser whose actions carry `csrf`. */
export function pageHtml(csrf: string): string {
  if (!/^[0-9a-f]+$/.test(csrf)) throw new TypeError("The CSRF token must be hex.");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sextant dashboard</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="csrf" content="${csrf}">
<style>${STYLE}</style></head>
<body>${BODY}<script>${PAGE_SCRIPT}</script></body></html>
`;
}
