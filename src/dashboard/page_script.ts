/**
 * The dashboard page's script: plain DOM code, no library and no build step. It renders the
 * snapshot and the live events of `/events`, and runs the actions (each after a confirmation,
 * with its result shown). Every value from the service is set as text, never as HTML.
 * It is kept free of backquotes and dollar-brace pairs, so it lives in a raw template string.
 * @module
 */

/** The script, inlined into the page. */
export const PAGE_SCRIPT = String.raw`
"use strict";
const csrf = document.querySelector('meta[name="csrf"]').content;
const state = { sessions: new Map(), projects: [], calls: new Map(), stats: { tools: [], minutes: [] },
  logs: [], project: null, memory: null };
const MAX_LOG = 2000;
const MAX_CALL_ROWS = 300;
const MAX_CALLS_KEPT = 1000;
const LEVELS = ["debug", "info", "warn", "error"];

function el(tag, attrs, children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (value !== null && value !== undefined) node.setAttribute(key, String(value));
  }
  for (const child of children || []) if (child) node.append(child);
  return node;
}
function row(cells, attrs) {
  return el("tr", attrs, cells.map((c) => c instanceof Node ? el("td", {}, [c]) : el("td", { text: c === null || c === undefined ? "" : String(c) })));
}
function megabytes(bytes) { return bytes === null || bytes === undefined ? "?" : (bytes / 1048576).toFixed(0) + " MB"; }
function ms(value) { return value === null ? "running" : value < 10 ? value.toFixed(2) + " ms" : value.toFixed(0) + " ms"; }
function time(iso) { return iso ? new Date(iso).toLocaleTimeString() : ""; }
function show(message, isError) {
  const box = document.getElementById("result");
  box.textContent = message;
  box.className = isError ? "error" : "ok";
}

async function act(name, args, question) {
  if (question && !confirm(question)) return null;
  try {
    const response = await fetch("/api/action/" + name, {
      method: "POST",
      headers: { "content-type": "application/json", "x-sextant-csrf": csrf },
      body: JSON.stringify(args || {}),
    });
    const answer = await response.json();
    show(answer.ok ? answer.message : answer.error, !answer.ok);
    return answer.ok ? answer : null;
  } catch (error) {
    show(String(error), true);
    return null;
  }
}
async function get(path) {
  const response = await fetch(path);
  const answer = await response.json();
  if (!response.ok) throw new Error(answer.error || response.statusText);
  return answer;
}

function renderService(service) {
  state.service = Object.assign(state.service || {}, service);
  const s = state.service;
  document.getElementById("service").textContent = "Sextant " + s.version + " · pid " + s.pid +
    " · " + megabytes(s.rss) + " · since " + new Date(s.startedAt).toLocaleString();
}

function renderSessions() {
  const body = document.querySelector("#sessions tbody");
  body.replaceChildren(...[...state.sessions.values()].map((s) => row([
    s.id, s.client || "(initializing)", s.project || "(no project)",
    s.context + " · " + s.modes.join(", "), time(s.since), time(s.lastCall), s.calls,
    el("button", { text: "End", onclick: () => act("end-session", { id: s.id }, "End session " + s.id + "? Its client loses the connection.") }),
  ], { "data-session": s.id })));
  document.getElementById("sessions-count").textContent = String(state.sessions.size);
  refreshProjectChoice();
}

function renderProjects() {
  const box = document.getElementById("projects-list");
  box.replaceChildren(...state.projects.map((p) => el("div", { class: "project" }, [
    el("h3", { text: p.root + " (" + p.sessions + " session" + (p.sessions === 1 ? "" : "s") + ")" }),
    p.servers.length === 0 ? el("p", { class: "muted", text: "No language server started yet." }) :
    el("table", {}, [
      el("thead", {}, [row(["server", "command", "version", "pid", "state", "restarts", "RSS", "CPU", ""])]),
      el("tbody", {}, p.servers.map((s) => row([
        s.id, s.command, s.version || "(not reported)", s.pid === null ? "-" : s.pid,
        el("span", { class: "state " + s.state, text: s.state + (s.progress ? " (" + s.progress + ")" : "") }),
        s.restarts, megabytes(s.rss),
        s.cpuSeconds === null ? "?" : (s.cpuPercent === null ? "" : s.cpuPercent.toFixed(0) + "% · ") + s.cpuSeconds.toFixed(1) + " s",
        el("button", { text: "Restart", onclick: () => act("restart-server", { project: p.root, server: s.id }, "Restart the " + s.id + " language server of " + p.root + "?") }),
      ], { "data-server": s.id, "data-pid": s.pid === null ? "" : s.pid, "data-state": s.state }))),
    ]),
  ])));
  refreshProjectChoice();
}

function renderCalls() {
  const calls = [...state.calls.values()].sort((a, b) => b.id - a.id).slice(0, MAX_CALL_ROWS);
  const body = document.querySelector("#calls tbody");
  body.replaceChildren(...calls.map((c) => {
    const occurrences = c.notAnalysed.filter((line) => line.startsWith("- ")).length;
    const notes = c.notAnalysed.length === 0 ? "" : el("a", { href: "#", text: String(occurrences),
      onclick: (event) => { event.preventDefault(); showNotes(c); } });
    const cancel = c.ms === null ? el("button", { text: "Cancel", onclick: () => act("cancel-call", { id: c.id }, "Cancel call " + c.id + " (" + c.tool + ")?") }) : "";
    return row([c.id, c.session, c.tool, el("code", { text: c.args }), new Date(c.started).toLocaleTimeString(),
      el("span", { class: "duration", text: ms(c.ms) }), c.size === null ? "" : c.size, c.error || "", notes, cancel],
      { "data-call": c.id, "data-tool": c.tool, class: c.error ? "failed" : c.ms === null ? "running" : "" });
  }));
}
function showNotes(call) {
  const box = document.getElementById("notes");
  box.hidden = false;
  box.textContent = "Call " + call.id + " (" + call.tool + "):\n" + call.notAnalysed.join("\n");
}

function renderStats() {
  const body = document.querySelector("#stats tbody");
  body.replaceChildren(...state.stats.tools.map((t) => row([t.tool, t.count, t.errors, ms(t.p50), ms(t.p95)], { "data-tool": t.tool })));
  drawChart();
}
function drawChart() {
  const canvas = document.getElementById("chart");
  canvas.width = canvas.clientWidth || 640;
  const ctx = canvas.getContext("2d");
  const w = canvas.width, h = canvas.height, left = 48, bottom = 20;
  ctx.clearRect(0, 0, w, h);
  ctx.font = "11px sans-serif";
  ctx.fillStyle = "#666";
  const minutes = state.stats.minutes;
  const top = Math.max(1, ...minutes.map((m) => m.p95));
  // A log scale: one slow call must not flatten the rest.
  const y = (v) => h - bottom - (Math.log10(1 + v) / Math.log10(1 + top)) * (h - bottom - 10);
  const x = (minute) => left + (59 - minute) / 60 * (w - left - 10);
  ctx.strokeStyle = "#ccc";
  ctx.beginPath(); ctx.moveTo(left, h - bottom); ctx.lineTo(w - 10, h - bottom); ctx.stroke();
  for (const mark of [60, 45, 30, 15, 0]) ctx.fillText(mark === 0 ? "now" : "-" + mark + " min", x(mark) - 12, h - 5);
  ctx.fillText(ms(top), 2, 14);
  ctx.fillText("0", 2, h - bottom);
  const slot = (w - left - 10) / 60;
  for (const m of minutes) {
    ctx.fillStyle = "#f0a04b";
    ctx.fillRect(x(m.minute), y(m.p95), Math.max(2, slot - 2), h - bottom - y(m.p95));
    ctx.fillStyle = "#3b7dd8";
    ctx.fillRect(x(m.minute), y(m.p50), Math.max(2, slot - 2), h - bottom - y(m.p50));
  }
}

function renderLog() {
  const level = LEVELS.indexOf(document.getElementById("log-level").value);
  const lines = state.logs.filter((l) => LEVELS.indexOf(l.level) >= level);
  const box = document.getElementById("log-lines");
  const atEnd = box.scrollTop + box.clientHeight >= box.scrollHeight - 4;
  box.replaceChildren(...lines.slice(-500).map((l) => el("div", { class: "log " + l.level,
    text: (l.time ? new Date(l.time).toLocaleTimeString() + " " : "") + l.level + " " + l.text })));
  if (atEnd) box.scrollTop = box.scrollHeight;
}

function knownProjects() {
  const roots = new Set(state.projects.map((p) => p.root));
  for (const s of state.sessions.values()) if (s.project) roots.add(s.project);
  return [...roots].sort();
}
function refreshProjectChoice() {
  const select = document.getElementById("project");
  const roots = knownProjects();
  const current = [...select.options].map((o) => o.value);
  if (current.join("\n") === roots.join("\n")) return;
  select.replaceChildren(...roots.map((r) => el("option", { value: r, text: r })));
  if (state.project === null || !roots.includes(state.project)) {
    state.project = roots[0] || null;
    loadProject();
  }
  if (state.project !== null) select.value = state.project;
}
async function loadProject() {
  await Promise.all([loadMemories(), loadSettings()]);
}
async function loadMemories() {
  const list = document.getElementById("memory-list");
  if (state.project === null) { list.replaceChildren(); return; }
  try {
    const answer = await get("/api/memories?project=" + encodeURIComponent(state.project));
    list.replaceChildren(...answer.names.map((name) => el("li", {}, [
      el("a", { href: "#", text: name, "data-memory": name, onclick: (event) => { event.preventDefault(); openMemory(name); } }),
    ])));
  } catch (error) { show(String(error.message || error), true); }
}
async function openMemory(name) {
  try {
    const answer = await get("/api/memory?project=" + encodeURIComponent(state.project) + "&name=" + encodeURIComponent(name));
    document.getElementById("memory-name").value = name;
    document.getElementById("memory-text").value = answer.text;
  } catch (error) { show(String(error.message || error), true); }
}
async function saveMemory() {
  const name = document.getElementById("memory-name").value;
  const done = await act("memory-save", { project: state.project, name, content: document.getElementById("memory-text").value },
    "Save memory '" + name + "' of " + state.project + "?");
  if (done) loadMemories();
}
async function deleteMemory() {
  const name = document.getElementById("memory-name").value;
  const done = await act("memory-delete", { project: state.project, name }, "Delete memory '" + name + "' of " + state.project + "?");
  if (done) { document.getElementById("memory-text").value = ""; loadMemories(); }
}
async function loadSettings() {
  try {
    const view = await get("/api/settings" + (state.project ? "?project=" + encodeURIComponent(state.project) : ""));
    document.querySelector("#effective tbody").replaceChildren(...view.effective.map((s) =>
      row([s.key, el("code", { text: s.value }), s.source], { "data-key": s.key, "data-source": s.source })));
    document.getElementById("settings-error").textContent = view.error || "";
    const global = document.getElementById("global-text");
    global.value = view.global ? view.global.text : "";
    global.disabled = !view.global;
    document.getElementById("global-path").textContent = view.global ? view.global.path + (view.global.exists ? "" : " (not created yet)") + (view.global.error ? ": " + view.global.error : "") : "(no global file: set HOME)";
    document.getElementById("project-path").textContent = view.project ? view.project.path + (view.project.exists ? "" : " (none)") + (view.project.error ? ": " + view.project.error : "") : "";
    document.getElementById("project-text").textContent = view.project ? view.project.text : "";
  } catch (error) { show(String(error.message || error), true); }
}
async function saveGlobal() {
  const done = await act("config-save", { text: document.getElementById("global-text").value }, "Save the global config file?");
  if (done) loadSettings();
}

function connect() {
  const source = new EventSource("/events");
  const on = (name, fn) => source.addEventListener(name, (event) => fn(JSON.parse(event.data)));
  on("snapshot", (s) => {
    renderService(s.service);
    state.sessions = new Map(s.sessions.map((x) => [x.id, x]));
    state.projects = s.projects;
    state.calls = new Map(s.calls.map((c) => [c.id, c]));
    state.stats = s.stats;
    state.logs = s.logs;
    renderSessions(); renderProjects(); renderCalls(); renderStats(); renderLog();
    document.body.dataset.live = "yes";
  });
  on("service", renderService);
  on("session", (s) => { state.sessions.set(s.id, s); renderSessions(); });
  on("sessions", (list) => { state.sessions = new Map(list.map((x) => [x.id, x])); renderSessions(); });
  on("session-closed", (s) => { state.sessions.delete(s.id); renderSessions(); });
  on("projects", (p) => { state.projects = p; renderProjects(); });
  on("call", (c) => {
    state.calls.set(c.id, c);
    // The oldest calls leave the page's memory (a Map iterates in insertion order).
    for (const id of state.calls.keys()) {
      if (state.calls.size <= MAX_CALLS_KEPT) break;
      state.calls.delete(id);
    }
    renderCalls();
  });
  on("stats", (s) => { state.stats = s; renderStats(); });
  on("log", (l) => { state.logs.push(l); if (state.logs.length > MAX_LOG) state.logs.splice(0, state.logs.length - MAX_LOG); renderLog(); });
  // The connection's state has a place of its own: an action's result stays readable.
  const connection = document.getElementById("connection");
  source.onerror = () => {
    document.body.dataset.live = "no";
    connection.textContent = "disconnected: retrying";
    connection.className = "error";
  };
  source.onopen = () => { connection.textContent = "live"; connection.className = ""; };
}

document.getElementById("project").addEventListener("change", (event) => { state.project = event.target.value; loadProject(); });
document.getElementById("log-level").addEventListener("change", renderLog);
document.getElementById("memory-save").addEventListener("click", saveMemory);
document.getElementById("memory-delete").addEventListener("click", deleteMemory);
document.getElementById("global-save").addEventListener("click", saveGlobal);
document.getElementById("stop").addEventListener("click", () => act("stop-service", {}, "Stop the Sextant service? Every session loses its connection (their clients start a new service on their next call)."));
loadSettings();
connect();
`;
