"""Real play for the bus tests: a room in this process (real SQLite store, fake clock) whose
tables are played by random legal decisions, so views come from hands as they happen."""

from __future__ import annotations

import random

from cardroom.engine.betting import Rules
from tests.rooms import table_settings

# Names as people and operators write them: the codec and the subjects must carry them all.
TABLE = "Planet Hold'em $2/$4"
GAMES = {
    "holdem": lambda name: table_settings(name),
    "holdem-nl": lambda name: table_settings(name, kind="no", rules=Rules()),
    "27-triple": lambda name: table_settings(name, "27-triple", seats=5),
    "stud8": lambda name: table_settings(name, "stud8", seats=8, rules=Rules(show_all=False)),
}


def random_legal(lg, my_cards, rnd: random.Random):
    """(kind, amount, discards): one action `lg` allows, chosen at random."""
    if lg.phase == "draw":
        k = rnd.randint(0, min(lg.max_draw, len(my_cards)))
        if k == 0 and rnd.random() < 0.5:
            return "stand pat", 0, ()
        return "draw", 0, tuple(rnd.sample(list(my_cards), k))
    if lg.phase == "showdown":
        return ("muck" if lg.muck and rnd.random() < 0.5 else "show"), 0, ()
    opts = []
    if lg.bring_in:
        opts.append(("bring-in", 0))
    if lg.fold and rnd.random() < 0.3:        # folding less often keeps hands going
        opts.append(("fold", 0))
    if lg.check:
        opts.append(("check", 0))
    if lg.can_call:
        opts += [("call", 0)] * 2
    if lg.min_to:
        if lg.raise_kind == "complete":
            opts.append(("complete", 0))
        else:
            amount = rnd.choice([lg.min_to, lg.max_to, rnd.randint(lg.min_to, lg.max_to)])
            opts.append((lg.raise_kind or "bet", amount))
    if not opts:
        opts.append(("fold", 0))
    kind, amount = rnd.choice(opts)
    return kind, amount, ()
