// Ask the analyser's JSON service from another language's test suite (node:test, Node 18+).
//
//   punto-banco serve &                       # http://127.0.0.1:8750/
//   PUNTO_BANCO_URL=http://127.0.0.1:8750 node --test examples/web/oracle.test.mjs
//
// The engine under test here is a small stub written for this file: replace `deal` and
// `dragon7Ev` with calls into your own engine.
import { test } from "node:test";
import assert from "node:assert/strict";

const base = (process.env.PUNTO_BANCO_URL ?? "http://127.0.0.1:8750").replace(/\/$/, "");

async function ask(route, body) {
  const response = await fetch(`${base}/api/v1/${route}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const doc = await response.json();
  assert.equal(response.status, 200, doc.error);
  return doc;
}

// An exact "p/q" from the service, compared with the engine's double: |p/q - x| < tolerance.
function near(exact, x, tolerance) {
  const [p, q = "1"] = exact.split("/");
  const scale = 10n ** 18n;
  const scaled = (BigInt(p) * scale) / BigInt(q); // p/q to 18 decimals, as an integer
  return Math.abs(Number(scaled) / 1e18 - x) < tolerance;
}

// The stub engine: card point values in dealing order in, the coup out (standard tableau).
function deal(cards) {
  let player = (cards[0] + cards[2]) % 10;
  let banker = (cards[1] + cards[3]) % 10;
  let used = 4;
  let third = null;
  const natural = player >= 8 || banker >= 8;
  if (!natural && player <= 5) {
    third = cards[used++];
    player = (player + third) % 10;
  }
  const bankerDraws =
    !natural &&
    (third === null
      ? banker <= 5
      : banker <= 2 ||
        (banker === 3 && third !== 8) ||
        (banker === 4 && third >= 2 && third <= 7) ||
        (banker === 5 && third >= 4 && third <= 7) ||
        (banker === 6 && third >= 6 && third <= 7));
  if (bankerDraws) banker = (banker + cards[used++]) % 10;
  const winner = player > banker ? "player" : banker > player ? "banker" : "tie";
  return { player, banker, winner, used };
}

test("the engine deals coups as the analyser does", async () => {
  for (const cards of [[2, 4, 3, 0, 6, 1], [9, 0, 0, 2, 5, 5], [3, 3, 2, 0, 8, 4], [1, 1, 4, 4, 7, 7]]) {
    const named = cards.map((v) => (v === 0 ? "10" : v === 1 ? "A" : String(v))); // a card of each value
    const coup = await ask("deal", { cards: named });
    const mine = deal(cards);
    assert.deepEqual(
      [mine.player, mine.banker, mine.winner, mine.used],
      [coup.player_total, coup.banker_total, coup.winner, coup.cards_dealt],
      `coup ${cards.join(" ")}: ${coup.announcement}`,
    );
  }
});

test("the engine's Dragon 7 EV on 8 decks is the exact one", async () => {
  const dragon7Ev = -0.07611334472442846; // what the engine under test computes (stub)
  const doc = await ask("price", { shoe: { decks: 8 }, bets: ["dragon-7"] });
  const row = doc.tables[0].rows[0];
  assert.equal(row.bet_name, "dragon-7");
  assert.ok(near(row.ev, dragon7Ev, 1e-12), `engine ${dragon7Ev}, exact ${row.ev}`);
});

test("a bad request is one line naming the problem", async () => {
  const response = await fetch(`${base}/api/v1/price`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ shoe: { decks: 8, seen: ["Z"] } }),
  });
  assert.equal(response.status, 400);
  assert.match((await response.json()).error, /bad card 'Z'/);
});
