// The probe's adapter for toyEngine.mjs: one request in, one coup out, per line.
import { createInterface } from "node:readline";
import { deal, settle } from "./toyEngine.mjs"; // your engine

for await (const line of createInterface({ input: process.stdin })) {
  const request = JSON.parse(line);
  const coup = deal(request.cards);
  const bets = {};
  for (const [name, stake] of Object.entries(request.stakes)) {
    bets[name] = { stake, paid: settle(name, coup, stake) };
  }
  console.log(JSON.stringify({ id: request.id, ...coup, bets }));
}
