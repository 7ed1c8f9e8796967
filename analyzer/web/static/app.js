// The live-shoe page of punto-banco-analyzer: cards in, exact EVs out (from the JSON service).
//
// Every number shown comes from the server as an exact fraction "p/q"; the page rounds it to
// 6 decimals with integer arithmetic (BigInt, half to even, as the analyser rounds) and puts
// the fraction in the element's title. The whole state lives in the URL fragment, e.g.
//   #decks=8&bets=dragon-7,panda-8&tags=0,0,0,-1,-1,-1,-1,2,2,0&seen=5h,Kd,9s,2c,/,x,Ah
// where "/" closes a coup and "x" is a card burned face down (dealt, never seen).
"use strict";

const DIGITS = 6;
const MAX_DECKS = 10000; // as the service allows
const TAGS_WANTED = "10 whole numbers, one for each of A 2 3 4 5 6 7 8 9 10/J/Q/K";
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

// The state an address holds, and what in it could not be read, each problem in the page's words
// (the field it fills, as the setup form names it; a card as a typed card is refused).
function fromFragment(hash) {
  const s = defaults();
  const problems = [];
  const decode = (v) => {
    try {
      return decodeURIComponent(v);
    } catch {
      problems.push(`'${shorten(v)}' cannot be read (a broken % escape)`);
      return "";
    }
  };
  for (const part of hash.replace(/^#/, "").split("&")) {
    if (!part) continue;
    const at = part.indexOf("=");
    const key = at < 0 ? part : part.slice(0, at);
    const value = at < 0 ? "" : part.slice(at + 1);
    if (key === "decks") {
      const decks = decode(value);
      if (/^\d{1,5}$/.test(decks) && Number(decks) >= 1 && Number(decks) <= MAX_DECKS) s.decks = Number(decks);
      else problems.push(`Decks '${shorten(decks)}' is not a whole number from 1 to ${MAX_DECKS}: 8 decks are used`);
    } else if (key === "shoe") s.shoe = decode(value);
    else if (key === "rules") s.rules = decode(value) || "standard";
    else if (key === "rules_toml") s.rulesToml = decode(value);
    else if (key === "bets") s.bets = value ? value.split(",").map(decode).filter(Boolean) : [];
    else if (key === "bet_file") s.betFile = decode(value);
    else if (key === "tags") {
      const tags = tagsText(decode(value));
      if (tags === null) problems.push(`Count tags '${shorten(decode(value))}' are not ${TAGS_WANTED}: no count is kept`);
      else s.tags = tags;
    } else if (key === "seen") {
      for (const token of value.split(",").filter(Boolean)) {
        const word = decode(token);
        const t = word === "/" || word.toLowerCase() === "x" ? word.toLowerCase() : normalCard(word);
        if (t === null) problems.push(`${notACard(word)}; it is left out of the cards seen`);
        else s.seen.push(t);
      }
    } else problems.push(`'${shorten(key)}' is not a field of this page: ignored`);
  }
  return { s, problems };
}

function shorten(text) {
  const t = String(text);
  return t.length > 40 ? `${t.slice(0, 39)}…` : t;
}

function notACard(token) {
  return `'${shorten(token)}' is not a card: use a rank A, 2-9, 10 or T, J, Q, K, optionally a suit s, h, d or c (e.g. Kh, 10s, 7)`;
}

// The words of an address's problems, as the message line shows them until the next card or Apply.
function addressWords(problems) {
  return problems.length ? `In this page's address: ${problems.join("; ")}.` : "";
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

// The service's messages name the command line's options (they are the library's); the page
// says the same in its own words: its fields and buttons.  Each entry: a pattern, its words.
const PAGE_WORDS = [
  [/ ?\(`?punto-banco bets --list`? lists all (\d+)\)/g, " (the Bets field suggests all $1 as you type)"],
  [/ ?\(punto-banco serve --[a-z-]+ raises it\)/g, " (whoever runs the server can raise it)"],
  [/;? or send a TOML rules text as rules_toml/g, ", or paste a rules file"],
  [/^rules_toml: /, "Rules file: "],
  [/^bet_file: /, "Bet file: "],
  [/^shoe\.decks: /, "Decks: "],
  [/^shoe\.counts: /, "Shoe: "],
  [/^shoe\.seen(\.\d+)?: /, "Cards seen: "],
  [/^bets(\.\d+)?: /, "Bets: "],
  [/^rules: /, "Rules: "],
  [/^cannot remove (\S+): the shoe holds no \S+$/, "$1 cannot have been dealt: the shoe holds no more of it (Undo it, or check the shoe under Shoe, rules and bets)"],
  [/\bbad shoe '/g, "bad shoe (the shoe field) '"],
  [/\(--decks\)/g, "(Decks)"],
  [/--decks\b/g, "Decks"],
  [/--shoe\b/g, "the shoe field"],
  [/--remove\b/g, "the cards seen"],
  [/--bet-file\b/g, "the bet file"],
  [/--bet\b/g, "Bets"],
  [/--rules\b/g, "Rules"],
  [/ ?\([^()]*(?:punto-banco|--)[^()]*\)/g, ""], // any other aside for the command line
];

function pageWords(text) {
  return PAGE_WORDS.reduce((t, [pattern, words]) => t.replace(pattern, words), String(text));
}

// A message of the service that says a bet needs the suits the cards were entered without.
const SUITS_NEEDED = /^suited bets need the suits of the cards/;

// Why a bet that reads suits cannot be priced on this shoe, in the page's words.
function suitsWords(s, cards) {
  if (s.shoe && !/[\dajqkt][shdc]\s*=/i.test(s.shoe)) {
    return "needs the suit of every card, and the shoe field gives cards per rank only: give them per rank and suit (e.g. Kh=2), or empty it to use Decks";
  }
  const bare = cards.filter((c) => !/[shdc]$/.test(c));
  if (bare.length) {
    const shown = [...new Set(bare)].slice(0, 4).join(", ");
    const first = bare[0];
    return `needs the suit of every card, and ${shown} ${bare.length === 1 ? "was" : "were"} entered without one: ` +
      `Undo back to ${first} and enter ${bare.length === 1 ? "it" : "each"} with its suit (e.g. ${first}h) to price this bet`;
  }
  return "needs the suit of every card, which this shoe does not give";
}

class ServiceError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
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
    throw new ServiceError("the server does not answer: start it again, then enter the next card (nothing is lost: this page's address holds the shoe)", 0);
  }
  let doc;
  try {
    doc = await response.json();
  } catch {
    throw new ServiceError(`the server answered ${response.status} without JSON`, response.status);
  }
  if (!response.ok) throw new ServiceError(pageWords(doc.error || `the server answered ${response.status}`), response.status);
  return doc;
}

function pointOf(doc) {
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

const FILE_UNIT = "bet file";

// What a request can be split into when one of its bets cannot be priced: each bet of the Bets
// field alone, and the bet file's bets together.
function units(s) {
  const list = s.bets.map((name) => ({ ...s, bets: [name], betFile: "", name }));
  if (s.betFile) list.push({ ...s, bets: [], name: FILE_UNIT });
  return list;
}

const titles = new Map(); // catalogue name or alias -> the bet's title, for a row not priced

// The bets refused at the last point priced for the whole shoe so far on this setup (the
// history's earlier points do not change it): the next point asks the others together and only
// these alone (a card without its suit stays in the shoe: 1 + k requests a
// card for k bets refused, not 1 + every bet).
const lastRefused = { key: "", names: new Set() };

async function priceAlone(unit, cards) {
  try {
    return { unit, point: pointOf(await post("/price", priceBody(unit, cards))) };
  } catch (error) {
    if (error.status !== 400) throw error;
    return { unit, why: error.message };
  }
}

// One priced point: the bets' rows and the unseen cards, for the seen cards of a prefix.  When
// the service refuses the bets together (400), each is asked alone: a bet it refuses keeps its
// row, with why (`why`), and the others are priced; when every bet is refused with the same
// words (but for want of suits), or none alone, the refusal is the whole point's (an error).
async function pricePoint(s, tokens, latest = false) {
  const cards = tokens.filter(isCard);
  const all = units(s);
  const key = setupKey(s);
  const unique = new Set(all.map((u) => u.name)).size === all.length;
  if (unique && lastRefused.key === key && lastRefused.names.size && all.some((u) => !lastRefused.names.has(u.name))) {
    const parts = await priceKnownRefused(s, cards, all, lastRefused.names);
    if (parts) return assemble(s, cards, parts, latest && key);
  }
  let refusal;
  try {
    const point = pointOf(await post("/price", priceBody(s, cards)));
    if (latest) Object.assign(lastRefused, { key, names: new Set() });
    return point;
  } catch (error) {
    if (error.status !== 400 || (all.length < 2 && !SUITS_NEEDED.test(error.message))) throw error;
    refusal = error;
  }
  const parts = [];
  for (const unit of all) parts.push(await priceAlone(unit, cards));
  const refused = parts.filter((p) => p.why !== undefined);
  const whys = new Set(refused.map((p) => p.why));
  if (refused.length === 0) throw refusal; // the bets together, not one of them
  if (refused.length === parts.length && whys.size === 1 && !SUITS_NEEDED.test(refusal.message)) throw refusal;
  return assemble(s, cards, parts, latest && key);
}

// The parts of a point when `refusedNames` were refused last time: the other bets together (one
// row each in the order asked, then the bet file's rows), each of those alone; null when the
// others are refused together too (the point is then priced afresh).
async function priceKnownRefused(s, cards, all, refusedNames) {
  const rest = all.filter((u) => !refusedNames.has(u.name));
  const withFile = rest.some((u) => u.name === FILE_UNIT);
  const together = { ...s, bets: rest.filter((u) => u.name !== FILE_UNIT).map((u) => u.name), betFile: withFile ? s.betFile : "" };
  let point;
  try {
    point = pointOf(await post("/price", priceBody(together, cards)));
  } catch (error) {
    if (error.status !== 400) throw error;
    return null;
  }
  const share = new Map(); // each unit's part of the point priced together
  let at = 0;
  for (const unit of rest) {
    if (unit.name !== FILE_UNIT) share.set(unit.name, { ...point, rows: point.rows.slice(at, (at += 1)) });
  }
  if (withFile) share.set(FILE_UNIT, { ...point, rows: point.rows.slice(at) });
  const parts = [];
  for (const unit of all) parts.push(share.has(unit.name) ? { unit, point: share.get(unit.name) } : await priceAlone(unit, cards));
  return parts;
}

// A point from its parts ({unit, point} or {unit, why}), the bets in the order chosen; the bets
// refused remembered for the setup `key` (unless false).
function assemble(s, cards, parts, key) {
  if (key !== false) Object.assign(lastRefused, { key, names: new Set(parts.filter((p) => p.why !== undefined).map((p) => p.unit.name)) });
  const priced = parts.find((p) => p.point);
  return {
    unseen: priced ? priced.point.unseen : null,
    shoe: priced ? priced.point.shoe : "",
    rows: parts.flatMap(({ unit, point, why }) =>
      point
        ? point.rows
        : [{ name: unit.name, title: titles.get(unit.name) || unit.name, why: SUITS_NEEDED.test(why) ? suitsWords(s, cards) : why }],
    ),
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
  list.scrollTop = list.scrollHeight; // the newest entry is the one to check: always in sight
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
    $("running").title = "choose Count tags under Shoe, rules and bets";
    $("true-count").title = "choose Count tags under Shoe, rules and bets";
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
    if (!row || !row.ev) continue;
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
    $("shoe-line").textContent = "";
    return;
  }
  let best = null;
  for (const row of current.rows) {
    if (row.ev && (!best || compareFractions(row.ev, best.ev) > 0)) best = row;
  }
  current.rows.forEach((row) => {
    const name = el("th", { scope: "row", title: row.name }, row.title);
    if (!row.ev) {
      // a bet that cannot be priced on these cards keeps its row, and says why
      const why = el("td", { class: "why", colspan: "3", "data-unpriced": row.name, text: `Not priced: ${row.why}` });
      body.append(el("tr", { class: "unpriced", "data-bet": row.name }, name, why));
      return;
    }
    const share = positiveShare(row.name);
    const ev = el("td", { class: "num", title: fractionText(row.ev), "data-bet": row.name, "data-exact": fractionText(row.ev), text: roundText(row.ev, DIGITS) });
    if (row.ev.p > 0n) ev.classList.add("positive");
    const edgePercent = { p: row.edge.p * 100n, q: row.edge.q };
    const edge = el("td", { class: "num", title: `${fractionText(row.edge)} per unit`, text: `${roundText(edgePercent, 4)}%` });
    const shareText = share.total ? `${share.positive} of ${share.total}` : "–";
    const shareCell = el("td", { class: "num", title: share.total ? `EV > 0 before ${share.positive} of the ${share.total} coups priced so far` : "" });
    shareCell.append(el("span", { text: shareText }), el("span", { class: "marks", "aria-hidden": "true", text: share.marks }));
    const tr = el("tr", row === best ? { class: "best-row", "data-bet": row.name } : { "data-bet": row.name }, name, ev, edge, shareCell);
    body.append(tr);
  });
  if (best) {
    const sign = best.ev.p > 0n ? "positive: the player has the edge" : "negative";
    $("best").textContent = `Best bet now: ${best.title}, EV ${roundText(best.ev, DIGITS)} (${sign}).`;
    $("best").title = fractionText(best.ev);
    $("best").className = best.ev.p > 0n ? "best positive" : "best";
  } else {
    $("best").textContent = "";
  }
  $("shoe-line").textContent = current.shoe ? `Unseen: ${current.shoe}` : "";
}

const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs = {}) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

// A fraction as a float, for drawing only (never shown as a value): scaled in BigInt first, so a
// fraction of huge terms gives no Infinity / Infinity.
function approx(x) {
  const scale = 10n ** 15n;
  return Number((x.p * scale) / x.q) / 1e15;
}

// Ticks at round steps (1, 2 or 5 times a power of ten) covering [lo, hi]: about `count` of
// them, never fewer than three; the labels have the decimals the step needs.
function niceTicks(lo, hi, count) {
  const raw = (hi - lo) / Math.max(count, 2);
  const power = 10 ** Math.floor(Math.log10(raw));
  const f = raw / power;
  const step = (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * power;
  const first = Math.floor(lo / step + 1e-9);
  let last = Math.ceil(hi / step - 1e-9);
  if (last - first < 2) last = first + 2;
  const decimals = Math.max(0, -Math.floor(Math.log10(step) + 1e-9));
  const ticks = [];
  for (let i = first; i <= last; i += 1) ticks.push({ at: i * step, text: (i * step).toFixed(decimals).replace(/^-(0\.?0*)$/, "$1") });
  return { lo: first * step, hi: last * step, ticks };
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
  const latest = points[points.length - 1].point;
  const names = latest.rows.map((r) => [r.name, r.title, Boolean(r.ev)]);
  // every priced value as a float for drawing; a bet not priced at a point has no value there
  const series = names.map(([name]) =>
    points
      .map(({ depth, point }) => ({ depth, row: point.rows.find((r) => r.name === name) }))
      .filter((p) => p.row && p.row.ev)
      .map((p) => ({ ...p, value: approx(p.row.ev) }))
      .filter((p) => Number.isFinite(p.value)),
  );
  const values = series.flat().map((p) => p.value);
  const W = Math.max(280, Math.floor(box.clientWidth) || 640);
  const H = W < 520 ? 210 : 250;
  const left = 64, right = 12, top = 10, bottom = 42;
  let lo = Math.min(0, ...values);
  let hi = Math.max(0, ...values);
  if (hi - lo < 1e-6) hi = lo + 1e-3;
  const yScale = niceTicks(lo, hi, Math.max(3, Math.round((H - top - bottom) / 40)));
  const deepest = Math.max(10, ...points.map((p) => p.depth));
  const xScale = niceTicks(0, deepest, Math.max(3, Math.round((W - left - right) / 90)));
  const x = (d) => left + ((W - left - right) * (d - xScale.lo)) / (xScale.hi - xScale.lo);
  const y = (v) => top + ((H - top - bottom) * (yScale.hi - v)) / (yScale.hi - yScale.lo);
  const chart = svg("svg", {
    width: W, height: H, viewBox: `0 0 ${W} ${H}`, role: "img",
    "aria-label": `EV per unit by cards dealt, before each coup, for ${names.map((n) => n[1]).join(", ")}`,
  });
  const text = (attrs, words) => {
    const node = svg("text", attrs);
    node.textContent = words;
    chart.append(node);
  };
  for (const t of yScale.ticks) {
    chart.append(svg("line", { x1: left, x2: W - right, y1: y(t.at), y2: y(t.at), class: t.at === 0 ? "zero" : "grid" }));
    text({ x: left - 6, y: y(t.at) + 4, class: "tick tick-y", "text-anchor": "end" }, t.text);
  }
  for (const t of xScale.ticks) {
    chart.append(svg("line", { x1: x(t.at), x2: x(t.at), y1: H - bottom, y2: H - bottom + 4, class: "axis" }));
    text({ x: x(t.at), y: H - bottom + 17, class: "tick tick-x", "text-anchor": "middle" }, t.text);
  }
  chart.append(svg("line", { x1: left, x2: left, y1: top, y2: H - bottom, class: "axis" }));
  chart.append(svg("line", { x1: left, x2: W - right, y1: H - bottom, y2: H - bottom, class: "axis" }));
  text({ x: left + (W - left - right) / 2, y: H - 6, class: "axis-title", "text-anchor": "middle" }, "cards dealt");
  text({ x: 14, y: top + (H - top - bottom) / 2, class: "axis-title", "text-anchor": "middle",
    transform: `rotate(-90 14 ${top + (H - top - bottom) / 2})` }, "EV per unit");
  names.forEach(([name, title, pricedNow], i) => {
    const colour = COLOURS[i % COLOURS.length];
    const line = series[i];
    if (line.length > 0) {
      chart.append(svg("polyline", {
        points: line.map((p) => `${x(p.depth).toFixed(1)},${y(p.value).toFixed(1)}`).join(" "),
        stroke: colour,
        class: "series",
      }));
    }
    for (const p of line) {
      const dot = svg("circle", { cx: x(p.depth).toFixed(1), cy: y(p.value).toFixed(1), r: 3, fill: colour });
      const tip = svg("title");
      tip.textContent = `${title}, ${p.depth} cards dealt: EV ${roundText(p.row.ev, DIGITS)} (${fractionText(p.row.ev)})`;
      dot.append(tip);
      chart.append(dot);
    }
    const swatch = el("span", { class: `swatch c${i % COLOURS.length}`, "aria-hidden": "true" }); // the page's policy allows no inline style
    const item = el("li", { "data-bet": name }, swatch, title);
    if (!pricedNow) {
      item.classList.add("unpriced");
      item.append(" (not priced now)");
    }
    $("legend").append(item);
  });
  box.append(chart);
}

function drawHistory() {
  drawPrices();
  drawChart();
}

// -- the flow -----------------------------------------------------------------------------------

let asked = 0;
let addressProblems = ""; // what a shared address held that is not used: shown until the next card or Apply

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
    point = await pricePoint(state, tokens, true);
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
    say(addressProblems, addressProblems ? "error" : "");
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
  addressProblems = ""; // the user has acted: a shared address's problems are said
  for (const token of tokens) {
    const word = token.toLowerCase();
    if (word === "u" || word === "undo") actions.push(["undo"]);
    else if (word === "/" || word === "done" || word === "n") actions.push(["done"]);
    else if (word === "x" || word === "burn") actions.push(["card", "x"]);
    else {
      const card = normalCard(token);
      if (card === null) {
        say(notACard(token), "error");
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
    say(`Count tags: give ${TAGS_WANTED}`, "error");
    return false;
  }
  const decksText = $("decks").value.trim();
  const decks = /^\d{1,5}$/.test(decksText) ? Number(decksText) : NaN;
  if (!$("shoe-counts").value.trim() && !(decks >= 1 && decks <= MAX_DECKS)) {
    say(`Decks: give a whole number from 1 to ${MAX_DECKS}`, "error");
    return false;
  }
  const bets = $("bets").value.split(/\s+/).filter(Boolean);
  const twice = bets.find((b, i) => bets.indexOf(b) !== i);
  if (twice !== undefined) {
    say(`Bets: '${shorten(twice)}' is named twice: name each bet once`, "error");
    return false;
  }
  addressProblems = "";
  state.decks = decks >= 1 && decks <= MAX_DECKS ? decks : 8;
  state.shoe = $("shoe-counts").value.trim();
  state.rules = $("rules").value || "standard";
  state.rulesToml = $("rules-toml").value.trim() ? $("rules-toml").value : "";
  state.bets = bets;
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
    for (const r of catalogue.tables[0].rows) {
      for (const name of [r.name, ...String(r.aliases).split(/,\s*/)]) if (name && name !== "-") titles.set(name, r.title);
    }
    const system = $("tag-system");
    for (const s of counts.systems) {
      const option = el("option", { value: s.bet, text: `${s.bet}: ${s.source}` });
      option.dataset.tags = s.tags.join(",");
      system.append(option);
    }
  } catch {
    say("the server does not answer: start it again, then reload this page (nothing is lost: its address holds the shoe)", "error");
  }
  fillSetup();
}

function start() {
  const { s, problems } = fromFragment(location.hash);
  state = s;
  addressProblems = addressWords(problems);
  say(addressProblems, "error");
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
  window.addEventListener("resize", () => drawChart()); // the chart is drawn at the screen's size
  act("undo", "u");
  act("coup-done", "/");
  act("burn", "x");
  $("new-shoe").addEventListener("click", () => {
    if (state.seen.length && !window.confirm("Start a new shoe? The cards entered are cleared (the address before this keeps them).")) return;
    window.history.pushState(null, "", "#" + toFragment(state)); // Back returns to the old shoe
    addressProblems = "";
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
    const { s, problems } = fromFragment(location.hash);
    state = s;
    addressProblems = addressWords(problems);
    say(addressProblems, "error");
    fillSetup();
    refresh();
  });
  refresh();
}

document.addEventListener("DOMContentLoaded", start);
