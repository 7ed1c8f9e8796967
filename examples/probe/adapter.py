"""The probe's adapter for toy_engine: one request in, one coup out, per line."""

import json
import sys

from toy_engine import deal, settle  # your engine

for line in sys.stdin:
    request = json.loads(line)
    coup = deal(request["cards"])
    bets = {
        name: {"stake": stake, "paid": str(settle(name, coup, stake))}
        for name, stake in request["stakes"].items()
    }
    record = {key: value for key, value in coup.items() if not key.startswith("_")}
    print(json.dumps({"id": request["id"], **record, "bets": bets}), flush=True)
