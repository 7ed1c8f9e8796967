// A small baccarat engine written without the analyser, for the probe's examples and tests.
// Its bugs are planted on demand: the environment variable TOY_BUG (or the first command-line
// argument) names one of
//   banker-6-by-total   Banker on 6 draws by the Player's final total (6 or 7), not its third card
//   no-player-natural   a Player natural does not stop the Banker drawing
//   ace-high            the ace counts 14 (4), as in poker order
//   tie-loses           Player and Banker bets lose on a tie instead of pushing
const BUG = process.env.TOY_BUG || process.argv[2] || "";
const BANKER_DRAWS = { 3: [0, 1, 2, 3, 4, 5, 6, 7, 9], 4: [2, 3, 4, 5, 6, 7], 5: [4, 5, 6, 7], 6: [6, 7] };

const value = (card) => {
  const rank = card.slice(0, -1) || card;
  if (rank === "A") return BUG === "ace-high" ? 4 : 1;
  return ["10", "T", "J", "Q", "K"].includes(rank) ? 0 : Number(rank);
};
const total = (hand) => hand.reduce((sum, card) => sum + value(card), 0) % 10;

export function deal(cards) {
  const [p1, b1, p2, b2, ...rest] = cards;
  const player = [p1, p2];
  const banker = [b1, b2];
  const playerNatural = total(player) >= 8 && BUG !== "no-player-natural";
  const natural = playerNatural || total(banker) >= 8;
  if (!natural && total(player) <= 5) player.push(rest.shift());
  const b = total(banker);
  if (!natural) {
    let draws;
    if (player.length === 2) draws = b <= 5;
    else if (b === 6 && BUG === "banker-6-by-total") draws = [6, 7].includes(total(player));
    else draws = b <= 2 || (BANKER_DRAWS[b] ?? []).includes(value(player[2]));
    if (draws) banker.push(rest.shift());
  }
  const [pt, bt] = [total(player), total(banker)];
  const winner = pt > bt ? "player" : bt > pt ? "banker" : "tie";
  return { player, banker, player_total: pt, banker_total: bt, winner };
}

// The net win of a bet, as decimal text (exact: 19/20 of a whole stake has at most two decimals).
export function settle(bet, coup, stake) {
  const { winner } = coup;
  if (bet === "banker" || bet === "player") {
    if (winner === "tie") return BUG === "tie-loses" ? String(-stake) : "0";
    if (winner !== bet) return String(-stake);
    return bet === "banker" ? (stake * 95 / 100).toFixed(2).replace(/\.?0+$/, "") : String(stake);
  }
  if (bet === "tie") return String(winner === "tie" ? 8 * stake : -stake);
  throw new Error(`unknown bet ${bet}`);
}
