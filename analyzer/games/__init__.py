"""Baccara chemin de fer solved as a game, exactly: the models (:mod:`~analyzer.games.model`),
the engine's counts on fixed tableaux as a cross-check (:mod:`~analyzer.games.tableaux`), an
exact linear program over the rationals (:mod:`~analyzer.games.lp`), the solvers and the
check of every equilibrium by exact best responses (:mod:`~analyzer.games.solve`), and a
room's fixed rules against the equilibrium (:mod:`~analyzer.games.rooms`)."""
