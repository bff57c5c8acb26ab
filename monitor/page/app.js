"use strict";
// The status page: polls api/queries every second and shows each query
// with its numbers, its SQL and plan, and two charts drawn here as SVG:
// rows read per second and watermark lag over the samples the server kept.

const SVG = "http://www.w3.org/2000/svg";
const W = 520, H = 140, LEFT = 48, BOTTOM = 18;
const cards = new Map(); // query id -> its elements

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function svgEl(tag, attrs) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

const num = (n) => (n == null ? "–" : n.toLocaleString("en-US", { maximumFractionDigits: 1 }));
const time = (ms) => (ms == null ? "none yet" : new Date(ms).toISOString().replace("T", " ").replace("Z", ""));
function bytes(n) {
  if (n == null) return "–";
  const units = ["B", "KiB", "MiB", "GiB"];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) { n /= 1024; i++; }
  return n.toFixed(i ? 1 : 0) + " " + units[i];
}

// card builds the elements of a query once; update fills them in.
function card(q) {
  const c = { root: el("section", "query") };
  c.root.dataset.query = q.id;
  const h = el("h2");
  h.append(el("span", "", "Query " + q.id), (c.state = el("span", "state")), (c.error = el("span", "error")));
  c.stats = el("dl", "stats");
  c.sql = el("pre", "sql", q.sql);
  c.plan = el("pre", "plan", q.plan);
  const charts = el("div", "charts");
  c.rps = chart(charts, "Throughput (rows read per second)", "rps");
  c.lag = chart(charts, "Watermark lag (seconds behind now)", "lag");
  c.root.append(h, c.stats, charts, el("h3", "", "SQL"), c.sql, el("h3", "", "Plan"), c.plan);
  return c;
}

function chart(parent, title, kind) {
  const box = el("div", "chart");
  const s = svgEl("svg", { width: W, height: H, viewBox: `0 0 ${W} ${H}`, "data-chart": kind, "data-points": 0 });
  box.append(el("h3", "", title), s);
  parent.append(box);
  return s;
}

// draw plots points [t, v] (v null: no value then) as a line.
function draw(s, points, kind) {
  s.replaceChildren();
  const pts = points.filter((p) => p[1] != null);
  s.setAttribute("data-points", pts.length);
  s.append(svgEl("line", { class: "axis", x1: LEFT, y1: H - BOTTOM, x2: W, y2: H - BOTTOM }),
    svgEl("line", { class: "axis", x1: LEFT, y1: 0, x2: LEFT, y2: H - BOTTOM }));
  if (pts.length === 0) return;
  const t0 = points[0][0], t1 = Math.max(points[points.length - 1][0], t0 + 1);
  const top = Math.max(...pts.map((p) => p[1]), 1e-9) * 1.1;
  const x = (t) => LEFT + ((t - t0) / (t1 - t0)) * (W - LEFT - 4);
  const y = (v) => H - BOTTOM - (Math.max(v, 0) / top) * (H - BOTTOM - 6);
  const label = (text, xx, yy, anchor) => {
    const t = svgEl("text", { x: xx, y: yy, "text-anchor": anchor });
    t.textContent = text;
    s.append(t);
  };
  label(num(top / 1.1), LEFT - 4, 12, "end");
  label("0", LEFT - 4, H - BOTTOM, "end");
  label(Math.round((t1 - t0) / 1000) + " s", W - 2, H - 4, "end");
  s.append(svgEl("polyline", { class: "line " + kind, points: pts.map((p) => `${x(p[0]).toFixed(1)},${y(p[1]).toFixed(1)}`).join(" ") }));
}

function update(c, q) {
  c.state.textContent = q.state;
  c.state.className = "state " + q.state;
  c.error.textContent = q.error || "";
  const rows = [
    ["rows read", num(q.rowsRead)], ["result rows", num(q.resultRows)],
    ["late rows dropped", num(q.lateRowsDropped)], ["bad rows skipped", num(q.badRowsSkipped)],
    ["watermark", time(q.watermark)], ["watermark lag", q.lagSeconds == null ? "–" : num(q.lagSeconds) + " s"],
    ["open windows", num(q.openWindows)], ["state", bytes(q.stateBytes)],
    ["last checkpoint", q.checkpoint ? `#${q.checkpoint.id}, ${bytes(q.checkpoint.bytes)}, ${num(q.checkpoint.ageSeconds)} s ago` : "–"],
    ["elapsed", num(q.elapsedSeconds) + " s"],
  ];
  c.stats.replaceChildren(...rows.map(([k, v]) => {
    const d = el("div");
    d.append(el("dt", "", k), el("dd", "", v));
    return d;
  }));
  draw(c.rps, q.history.map((s) => [s.t, s.rps]), "rps");
  draw(c.lag, q.history.map((s) => [s.t, s.lag ?? null]), "lag");
}

async function refresh() {
  const health = document.getElementById("health");
  try {
    const r = await fetch("api/queries", { cache: "no-store" });
    const data = await r.json();
    health.textContent = data.failed ? "failed: " + data.failed : "ok";
    health.className = "badge " + (data.failed ? "failed" : "ok");
    document.getElementById("updated").textContent = "updated " + time(data.now);
    const main = document.getElementById("queries");
    if (data.queries.length > 0) document.getElementById("empty")?.remove();
    for (const q of data.queries) {
      if (!cards.has(q.id)) {
        cards.set(q.id, card(q));
        main.prepend(cards.get(q.id).root); // the newest first
      }
      update(cards.get(q.id), q);
    }
  } catch (e) {
    health.textContent = "no answer from wsql";
    health.className = "badge failed";
  }
}

refresh();
setInterval(refresh, 1000);
