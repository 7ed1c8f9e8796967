// The live-shoe page of punto-banco-analyzer: cards in, exact EVs out (from the JSON service).
//
// Every number shown comes from the server as an exact fraction "p/q"; the page rounds it to
// 6 decimals with integer arithmetic (BigInt, half to even, as the analyser rounds) and puts
// the fraction in the element's title. The whole state lives in the URL fragment, e.g.
//   #decks=8&bets=dragon-7,panda-8&tags=0,0,0,-1,-1,-1,-1,2,2,0&seen=5h,Kd,9s,2c,/,x,Ah
// where "/" closes a coup and "x" is a card burned face down (dealt, never seen).
"use strict";

const DIGITS = 6;
const API = "/api/v1";
const COLOURS = ["#1b6ca8", "#c0392b", "#2e7d32", "#8e44ad", "#b35900", "#00796b", "#5d6d7e", "#9a7d0a"];
const VALUE_ORDER = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10/J/Q/K"];

// -- exact numbers ---------------------------------------------------------------------------

function parseFraction(text) {
  const [p, q] = String(text).split("/");
  return { p: BigInt(p), q: BigInt(q === undefined ? "1" : q) };
}

function compareFractions(a, b) {
  const left = a.p * b.q;
  const right = b.p * a.q;
  return left < right ? -1 : left > right ? 1 : 0;
}

// x rounded to `digits` decimals, half to even (the analyser's round_fraction), as text.
function roundText(x, digits) {
  const negative = x.p < 0n;
  const scaled = (negative ? -x.p : x.p) * 10n ** BigInt(digits);
  let whole = scaled / x.q;
  const twice = 2n * (scaled % x.q);
  if (twice > x.q || (twice === x.q && whole % 2n === 1n)) whole += 1n;
  let text = whole.toString().padStart(digits + 1, "0");
  if (digits > 0) text = text.slice(0, -digits) + "." + text.slice(-digits);
  return (negative && whole !== 0n ? "-" : "") + text;
}

function fractionText(x) {
  return x.q === 1n ? x.p.toString() : `${x.p}/${x.q}`;
}

function gcd(a, b) {
  a = a < 0n ? -a : a;
  while (b) [a, b] = [b, a % b];
  return a;
}

// -- cards and state ---------------------------------------------------------------------------

const CARD = /^(10|[2-9]|[atjqk])([shdc])?$/i;

function normalCard(token) {
  const m = CARD.exec(token);
  if (!m) return null;
  const rank = m[1].toUpperCase() === "T" ? "10" : m[1].toUpperCase();
  return rank + (m[2] ? m[2].toLowerCase() : "");
}

function pointIndex(card) {
  // index in VALUE_ORDER (A, 2..9, 10-valued)
  const rank = card.replace(/[shdc]$/, "");
  if (rank === "A") return 0;
  if (/^[2-9]$/.test(rank)) return Number(rank) - 1;
  return 9;
}

const isCard = (t) => t !== "/" && t !== "x";

function defaults() {
  return { decks: 8, shoe: "", rules: "standard", rulesToml: "", bets: ["dragon-7", "panda-8"], betFile: "", tags: "", seen: [] };
}

let state = defaults();

function enc(text) {
  return encodeURIComponent(text).replace(/%3A/gi, ":").replace(/%40/gi, "@");
}

function toFragment(s) {
  const parts = [s.shoe ? `shoe=${enc(s.shoe)}` : `decks=${s.decks}`];
  if (s.rulesToml) parts.push(`rules_toml=${enc(s.rulesToml)}`);
  else if (s.rules && s.rules !== "standard") parts.push(`rules=${enc(s.rules)}`);
  parts.push(`bets=${s.bets.map(enc).join(",")}`);
  if (s.betFile) parts.push(`bet_file=${enc(s.betFile)}`);
  if (s.tags) parts.push(`tags=${s.tags}`);
  parts.push(`seen=${s.seen.join(",")}`);
  return parts.join("&");
}

function fromFragment(hash) {
  const s = defaults();
  const problems = [];
  const decode = (v) => {
    try {
      return decodeURIComponent(v);
    } catch {
      problems.push(`cannot read ${v.slice(0, 40)}`);
      return "";
    }
  };
  for (const part of hash.replace(/^#/, "").split("&")) {
    if (!part) continue;
    const at = part.indexOf("=");
    const key = at < 0 ? part : part.slice(0, at);
    const value = at < 0 ? "" : part.slice(at + 1);
    if (key === "decks") s.decks = Math.max(1, Number.parseInt(value, 10) || 8);
    else if (key === "shoe") s.shoe = decode(value);
    else if (key === "rules") s.rules = decode(value) || "standard";
    else if (key === "rules_toml") s.rulesToml = decode(value);
    else if (key === "bets") s.bets = value ? value.split(",").map(decode).filter(Boolean) : [];
    else if (key === "bet_file") s.betFile = decode(value);
    else if (key === "tags") s.tags = tagsText(decode(value)) ?? "";
    else if (key === "seen") {
      for (const token of value.split(",").filter(Boolean)) {
        const t = token === "/" || token.toLowerCase() === "x" ? token.toLowerCase() : normalCard(token);
        if (t === null) problems.push(`not a card: ${token}`);
        else s.seen.push(t);
      }
    }
  }
  return { s, problems };
}

function tagsText(text) {
  const tags = String(text).split(/[\s,]+/).filter(Boolean);
  if (tags.length === 0) return "";
  if (tags.length !== 10 || !tags.every((t) => /^[+-]?\d{1,3}$/.test(t))) return null;
  return tags.map((t) => String(Number(t))).join(",");
}

// -- the service -------------------------------------------------------------------------------

function setupKey(s) {
  return JSON.stringify([s.decks, s.shoe, s.rules, s.rulesToml, s.bets, s.betFile]);
}

function priceBody(s, seenCards) {
  const shoe = s.shoe ? { counts: s.shoe, seen: seenCards } : { decks: s.decks, seen: seenCards };
  const body = { shoe, bets: s.bets };
  if (s.rulesToml) body.rules_toml = s.rulesToml;
  else if (s.rules && s.rules !== "standard") body.rules = s.rules;
  if (s.betFile) body.bet_file = s.betFile;
  return body;
}

async function post(path, body) {
  let response;
  try {
    response = await fetch(API + path, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  } catch {
    throw new Error("the server does not answer: start it again with 'punto-banco serve' (nothing is lost: the address holds the shoe)");
  }
  let doc;
  try {
    doc = await response.json();
  } catch {
    throw new Error(`the server answered ${response.status} without JSON`);
  }
  if (!response.ok) throw new Error(doc.error || `the server answered ${response.status}`);
  return doc;
}

// One priced point: the bets' rows and the unseen cards, for the seen cards of a prefix.
async function pricePoint(s, tokens) {
  const doc = await post("/price", priceBody(s, tokens.filter(isCard)));
  const table = doc.tables.find((t) => t.name === "bets");
  const match = /(\d+) cards/.exec(doc.meta.shoe);
  return {
    unseen: match ? Number(match[1]) : null,
    shoe: doc.meta.shoe,
    rows: table.rows.map((r) => ({
      name: r.bet_name,
      title: r.bet,
      ev: parseFraction(r.ev),
      edge: parseFraction(r.house_edge),
    })),
  };
}

// -- history: the EV before each coup of this shoe -------------------------------------------

const history = { key: "", points: new Map() }; // prefix length -> point (or {error})
let filling = false;

function boundaries(seen) {
  const ends = [0];
  seen.forEach((t, i) => {
    if (t === "/") ends.push(i + 1);
  });
  return ends;
}

async function fillHistory() {
  if (filling) return;
  filling = true;
  try {
    for (;;) {
      const key = setupKey(state);
      if (history.key !== key) {
        history.key = key;
        history.points.clear();
      }
      const missing = boundaries(state.seen).find((n) => !history.points.has(n));
      if (missing === undefined) break;
      const tokens = state.seen.slice(0, missing);
      let point;
      try {
        point = await pricePoint(state, tokens);
      } catch (error) {
        point = { error: String(error.message || error) };
      }
      if (setupKey(state) === key && state.seen.slice(0, missing).join() === tokens.join()) {
        history.points.set(missing, point);
        drawHistory();
      }
    }
  } finally {
    filling = false;
  }
}

// -- drawing -------------------------------------------------------------------------------------

const $ = (id) => document.getElementById(id);

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "text") node.textContent = v;
    else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c);
  return node;
}

function say(text, kind = "") {
  const node = $("message");
  node.textContent = text;
  node.className = `message ${kind}`;
}

function depthOf(tokens) {
  return tokens.filter((t) => t !== "/").length;
}

function drawSeen() {
  const list = $("coups");
  list.replaceChildren();
  const groups = [[]];
  for (const t of state.seen) {
    if (t === "/") groups.push([]);
    else groups[groups.length - 1].push(t);
  }
  groups.forEach((cards, i) => {
    const open = i === groups.length - 1;
    if (open && cards.length === 0 && i > 0) return;
    const text = cards.map((c) => (c === "x" ? "▮" : c)).join(" ") || "—";
    const label = cards.map((c) => (c === "x" ? "burned" : c)).join(" ");
    list.append(el("li", { text: `${open ? "now" : "coup " + (i + 1)}: ${text}`, "aria-label": `${open ? "current coup" : "coup " + (i + 1)}: ${label || "no cards"}` }));
  });
  const faceUp = state.seen.filter(isCard).length;
  const burned = state.seen.filter((t) => t === "x").length;
  $("seen-count").textContent = `(${faceUp} cards seen${burned ? `, ${burned} burned face down` : ""})`;
}

function drawCounts(unseen) {
  const tags = state.tags ? state.tags.split(",").map(Number) : null;
  const faceUp = state.seen.filter(isCard);
  $("depth").textContent = String(depthOf(state.seen));
  if (!tags) {
    $("running").textContent = "–";
    $("true-count").textContent = "–";
    $("running").title = "choose count tags above";
    $("true-count").title = "choose count tags above";
    return;
  }
  const running = faceUp.reduce((sum, c) => sum + tags[pointIndex(c)], 0);
  $("running").textContent = String(running);
  $("running").title = `tags ${VALUE_ORDER.map((v, i) => `${v}:${tags[i]}`).join(" ")}`;
  if (!unseen) {
    $("true-count").textContent = "–";
    return;
  }
  // true count = running count / (unseen cards / 52), exact
  let p = BigInt(running) * 52n;
  let q = BigInt(unseen);
  const g = gcd(p, q) || 1n;
  p /= g;
  q /= g;
  $("true-count").textContent = roundText({ p, q }, 2);
  $("true-count").title = `${fractionText({ p, q })} = ${running} / (${unseen} unseen cards / 52)`;
}

// Before how many of the coups priced so far the bet's EV was above 0, and the history as
// marks, one per coup ("+" EV > 0, "·" not), the latest last.
function positiveShare(name) {
  let positive = 0;
  let marks = "";
  for (const n of boundaries(state.seen)) {
    const point = history.points.get(n);
    const row = point && point.rows && point.rows.find((r) => r.name === name);
    if (!row) continue;
    marks += row.ev.p > 0n ? "+" : "·";
    if (row.ev.p > 0n) positive += 1;
  }
  return { positive, total: marks.length, marks: marks.slice(-24) };
}

let current = null; // the point priced for the whole of state.seen

function drawPrices() {
  const body = $("prices").querySelector("tbody");
  body.replaceChildren();
  if (!current || current.error) {
    $("best").textContent = "";
    return;
  }
  let best = null;
  for (const row of current.rows) {
    if (!best || compareFractions(row.ev, best.ev) > 0) best = row;
  }
  current.rows.forEach((row) => {
    const share = positiveShare(row.name);
    const ev = el("td", { class: "num", title: fractionText(row.ev), "data-bet": row.name, "data-exact": fractionText(row.ev), text: roundText(row.ev, DIGITS) });
    if (row.ev.p > 0n) ev.classList.add("positive");
    const edgePercent = { p: row.edge.p * 100n, q: row.edge.q };
    const edge = el("td", { class: "num", title: `${fractionText(row.edge)} per unit`, text: `${roundText(edgePercent, 4)}%` });
    const shareText = share.total ? `${share.positive} of ${share.total}` : "–";
    const shareCell = el("td", { class: "num", title: share.total ? `EV > 0 before ${share.positive} of the ${share.total} coups priced so far` : "" });
    shareCell.append(el("span", { text: shareText }), el("span", { class: "marks", "aria-hidden": "true", text: share.marks }));
    const name = el("th", { scope: "row", title: row.name }, row.title);
    const tr = el("tr", row === best ? { class: "best-row" } : {}, name, ev, edge, shareCell);
    body.append(tr);
  });
  if (best) {
    const sign = best.ev.p > 0n ? "positive: the player has the edge" : "negative";
    $("best").textContent = `Best bet now: ${best.title}, EV ${roundText(best.ev, DIGITS)} (${sign}).`;
    $("best").title = fractionText(best.ev);
    $("best").className = best.ev.p > 0n ? "best positive" : "best";
  }
  $("shoe-line").textContent = `Unseen: ${current.shoe}`;
}

const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs = {}) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

function drawChart() {
  const box = $("chart");
  box.replaceChildren();
  $("legend").replaceChildren();
  const points = [];
  for (const n of boundaries(state.seen)) {
    const point = history.points.get(n);
    if (point && point.rows) points.push({ depth: depthOf(state.seen.slice(0, n)), point });
  }
  if (current && current.rows && !boundaries(state.seen).includes(state.seen.length)) {
    points.push({ depth: depthOf(state.seen), point: current });
  }
  if (points.length === 0) {
    box.append(el("p", { class: "hint", text: "No coup priced yet." }));
    return;
  }
  const names = points[points.length - 1].point.rows.map((r) => [r.name, r.title]);
  const size = current && current.unseen !== null ? current.unseen + state.seen.filter(isCard).length : 416;
  const W = 640, H = 240, left = 62, right = 12, top = 12, bottom = 30;
  const values = points.flatMap(({ point }) => point.rows.map((r) => Number(r.ev.p) / Number(r.ev.q))); // a view: floats for drawing only
  let lo = Math.min(0, ...values);
  let hi = Math.max(0, ...values);
  if (hi - lo < 1e-9) hi = lo + 1e-3;
  const pad = (hi - lo) * 0.08;
  lo -= pad;
  hi += pad;
  const x = (d) => left + ((W - left - right) * d) / Math.max(size, 1);
  const y = (v) => top + ((H - top - bottom) * (hi - v)) / (hi - lo);
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": `EV by cards dealt for ${names.map((n) => n[1]).join(", ")}` });
  chart.append(svg("line", { x1: left, x2: W - right, y1: y(0), y2: y(0), class: "zero" }));
  chart.append(svg("line", { x1: left, x2: left, y1: top, y2: H - bottom, class: "axis" }));
  chart.append(svg("line", { x1: left, x2: W - right, y1: H - bottom, y2: H - bottom, class: "axis" }));
  for (const v of [lo + pad, 0, hi - pad]) {
    const label = svg("text", { x: left - 6, y: y(v) + 4, class: "tick", "text-anchor": "end" });
    label.textContent = v.toFixed(3);
    chart.append(label);
  }
  for (const d of [0, Math.round(size / 2), size]) {
    const label = svg("text", { x: x(d), y: H - bottom + 18, class: "tick", "text-anchor": "middle" });
    label.textContent = String(d);
    chart.append(label);
  }
  names.forEach(([name, title], i) => {
    const colour = COLOURS[i % COLOURS.length];
    const series = points
      .map(({ depth, point }) => ({ depth, row: point.rows.find((r) => r.name === name) }))
      .filter((p) => p.row);
    const line = svg("polyline", {
      points: series.map((p) => `${x(p.depth).toFixed(1)},${y(Number(p.row.ev.p) / Number(p.row.ev.q)).toFixed(1)}`).join(" "),
      stroke: colour,
      class: "series",
    });
    chart.append(line);
    for (const p of series) {
      const dot = svg("circle", { cx: x(p.depth).toFixed(1), cy: y(Number(p.row.ev.p) / Number(p.row.ev.q)).toFixed(1), r: 2.5, fill: colour });
      const tip = svg("title");
      tip.textContent = `${title}, ${p.depth} cards dealt: EV ${roundText(p.row.ev, DIGITS)} (${fractionText(p.row.ev)})`;
      dot.append(tip);
      chart.append(dot);
    }
    const swatch = el("span", { class: `swatch c${i % COLOURS.length}`, "aria-hidden": "true" });
    $("legend").append(el("li", {}, swatch, title));
  });
  box.append(chart);
}

function drawHistory() {
  drawPrices();
  drawChart();
}

// -- the flow -----------------------------------------------------------------------------------

let asked = 0;

async function refresh() {
  const fragment = "#" + toFragment(state);
  if (location.hash !== fragment) replaceFragment(fragment);
  drawSeen();
  drawCounts(current && current.unseen !== null ? current.unseen : null);
  const mine = ++asked;
  const tokens = state.seen.slice();
  document.body.setAttribute("aria-busy", "true");
  let point;
  try {
    point = await pricePoint(state, tokens);
  } catch (error) {
    point = { error: String(error.message || error) };
  }
  if (mine !== asked) return; // a newer card has been entered: its answer will draw
  document.body.removeAttribute("aria-busy");
  current = point;
  if (point.error) {
    say(point.error, "error");
    $("prices").querySelector("tbody").replaceChildren();
    $("best").textContent = "";
  } else {
    say("");
    drawCounts(point.unseen);
  }
  if (!point.error && boundaries(state.seen).includes(state.seen.length) && setupKey(state) === history.key) {
    history.points.set(state.seen.length, point);
  }
  drawHistory();
  document.body.dataset.pricedSeen = state.seen.join(","); // for scripts and tests: what is drawn
  fillHistory();
}

function replaceFragment(fragment) {
  window.history.replaceState(null, "", fragment);
}

function applyTokens(text) {
  const tokens = text.split(/[\s,]+/).filter(Boolean);
  if (tokens.length === 0) return;
  const actions = [];
  for (const token of tokens) {
    const word = token.toLowerCase();
    if (word === "u" || word === "undo") actions.push(["undo"]);
    else if (word === "/" || word === "done" || word === "n") actions.push(["done"]);
    else if (word === "x" || word === "burn") actions.push(["card", "x"]);
    else {
      const card = normalCard(token);
      if (card === null) {
        say(`'${token}' is not a card: use a rank A, 2-9, 10 or T, J, Q, K, optionally a suit s, h, d or c (e.g. Kh, 10s, 7)`, "error");
        return false;
      }
      actions.push(["card", card]);
    }
  }
  for (const [kind, card] of actions) {
    if (kind === "undo") state.seen.pop();
    else if (kind === "done") {
      if (state.seen.length && state.seen[state.seen.length - 1] !== "/") state.seen.push("/");
    } else state.seen.push(card);
  }
  return true;
}

function fillSetup() {
  $("decks").value = String(state.decks);
  $("shoe-counts").value = state.shoe;
  const rules = $("rules");
  if (![...rules.options].some((o) => o.value === state.rules)) rules.append(el("option", { value: state.rules, text: state.rules }));
  rules.value = state.rules;
  $("rules-toml").value = state.rulesToml;
  $("bets").value = state.bets.join(" ");
  $("bet-file").value = state.betFile;
  $("tags").value = state.tags;
  const system = $("tag-system");
  system.value = [...system.options].find((o) => o.dataset.tags === state.tags)?.value ?? "";
}

function readSetup() {
  const tags = tagsText($("tags").value);
  if (tags === null) {
    say("count tags: give 10 whole numbers, for A 2 3 4 5 6 7 8 9 10/J/Q/K", "error");
    return false;
  }
  const decks = Number.parseInt($("decks").value, 10);
  if (!$("shoe-counts").value.trim() && !(decks >= 1)) {
    say("decks: give a whole number, 1 or more", "error");
    return false;
  }
  state.decks = decks >= 1 ? decks : 8;
  state.shoe = $("shoe-counts").value.trim();
  state.rules = $("rules").value || "standard";
  state.rulesToml = $("rules-toml").value.trim() ? $("rules-toml").value : "";
  state.bets = $("bets").value.split(/\s+/).filter(Boolean);
  state.betFile = $("bet-file").value.trim() ? $("bet-file").value : "";
  state.tags = tags;
  return true;
}

async function loadReference() {
  try {
    const [rules, catalogue, counts] = await Promise.all(
      ["/rules", "/catalogue", "/counts"].map((p) => fetch(API + p).then((r) => r.json())),
    );
    const select = $("rules");
    select.replaceChildren(...rules.rules.map((r) => el("option", { value: r.name, text: `${r.name} — ${r.title}` })));
    const list = $("bet-names");
    list.replaceChildren(...catalogue.tables[0].rows.map((r) => el("option", { value: r.name, label: r.bet })));
    const system = $("tag-system");
    for (const s of counts.systems) {
      const option = el("option", { value: s.bet, text: `${s.bet}: ${s.source}` });
      option.dataset.tags = s.tags.join(",");
      system.append(option);
    }
  } catch {
    say("the server does not answer: start it with 'punto-banco serve'", "error");
  }
  fillSetup();
}

function start() {
  const { s, problems } = fromFragment(location.hash);
  state = s;
  if (problems.length) say(`ignored in the address: ${problems.join("; ")}`, "error");
  fillSetup();
  loadReference();

  $("card-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = $("card");
    if (applyTokens(input.value) !== false) {
      input.value = "";
      refresh();
    }
  });
  $("card").addEventListener("keydown", (event) => {
    if (event.key === "Escape") event.target.value = "";
  });
  const act = (id, text) =>
    $(id).addEventListener("click", () => {
      applyTokens(text);
      refresh();
      $("card").focus();
    });
  act("undo", "u");
  act("coup-done", "/");
  act("burn", "x");
  $("new-shoe").addEventListener("click", () => {
    if (state.seen.length && !window.confirm("Start a new shoe? The cards entered are cleared (the address before this keeps them).")) return;
    window.history.pushState(null, "", "#" + toFragment(state)); // Back returns to the old shoe
    state.seen = [];
    refresh();
    $("card").focus();
  });
  $("setup-form").addEventListener("submit", (event) => {
    event.preventDefault();
    if (readSetup()) refresh();
  });
  $("tag-system").addEventListener("change", (event) => {
    const option = event.target.selectedOptions[0];
    if (option && option.dataset.tags) $("tags").value = option.dataset.tags;
  });
  window.addEventListener("hashchange", () => {
    if (location.hash === "#" + toFragment(state)) return;
    state = fromFragment(location.hash).s;
    fillSetup();
    refresh();
  });
  refresh();
}

document.addEventListener("DOMContentLoaded", start);
