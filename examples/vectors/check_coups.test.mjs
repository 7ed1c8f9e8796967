// Check a baccarat engine against the test-vector kit of punto-banco-analyzer.
//
//   punto-banco vectors -o vectors/
//   VECTORS=vectors node --test examples/vectors/check_coups.test.mjs
//
// The engine under test here is a small stub written for this file, to show the loader works:
// replace `deal` with a call into your own engine.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";

const dir = process.env.VECTORS ?? "vectors";

// The stub engine: point values (0-9) in dealing order in, the coup out (standard tableau).
function deal(cards) {
  let player = (cards[0] + cards[2]) % 10;
  let banker = (cards[1] + cards[3]) % 10;
  let used = 4;
  let third = null; // the Player's third card, when it drew
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
  return { player, banker, playerDraws: third !== null, bankerDraws, winner, used };
}

test("coups.jsonl is the file MANIFEST.json describes", () => {
  const manifest = JSON.parse(readFileSync(`${dir}/MANIFEST.json`, "utf8"));
  const digest = createHash("sha256").update(readFileSync(`${dir}/coups.jsonl`)).digest("hex");
  assert.equal(digest, manifest.files["coups.jsonl"].sha256);
});

// The loader the README shows: every value-level coup, against the engine.
test("the engine deals every value-level coup as the analyser does", () => {
  const lines = readFileSync(`${dir}/coups.jsonl`, "utf8").trimEnd().split("\n");
  const [header, ...coups] = lines.map((line) => JSON.parse(line));
  assert.deepEqual(header.slice(0, 7), ["cards", "player_total", "banker_total", "player_draws", "banker_draws", "winner", "cards_used"]);
  for (const [cards, ...expected] of coups) {
    const got = deal(cards);
    const mine = [got.player, got.banker, got.playerDraws, got.bankerDraws, got.winner, got.used];
    assert.deepEqual(mine, expected.slice(0, 6), `coup ${cards.join(" ")}`);
  }
});

test("the kit holds every leaf of the standard tableau's value-level tree", () => {
  const lines = readFileSync(`${dir}/coups.jsonl`, "utf8").trimEnd().split("\n");
  assert.equal(lines.length - 1, 339400);
});
