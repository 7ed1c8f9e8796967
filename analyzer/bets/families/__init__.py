"""The catalogue's bets that the bet-file language cannot say, in small modules by family:
their parameter is a side, a set of tie totals or a list of pays, or they have progressive
meters.  ``analyzer/bets/catalogue.toml`` names each one's builder (``make``)."""
