"""The table screen's keys, each written once (`KEYS`): the key, its action, its footer and palette
label, when it works, and its chip on the action bar. TableScreen's BINDINGS, check_action and
action bar are all read from this table, so a new key is one line here (and its action_ method).
The question line above the action bar (`question`), whose answers are keys, is here too.

The functions here read the screen they are given (`s`: a TableScreen): its view, holds and
answers; this module does not import the screen."""

from __future__ import annotations

from typing import Callable, NamedTuple

from rich.text import Text
from textual.actions import parse
from textual.binding import Binding, BindingType

from cardroom.room.api import AUTO_LABELS, TableView
from cardroom.tui.render import money

HOLD = Binding.Group("Hold", compact=True)
AUTO = Binding.Group("Auto")
# (auto action, key, label): Ask Me on "a", the others on F2..F6.
AUTO_KEYS = (("ask", "a", AUTO_LABELS["ask"]), ("check/fold", "f2", AUTO_LABELS["check/fold"]),
             ("check/call", "f3", AUTO_LABELS["check/call"]), ("bet/call", "f4", AUTO_LABELS["bet/call"]),
             ("raise", "f5", AUTO_LABELS["raise"]), ("fold", "f6", AUTO_LABELS["fold"]))
VERBS = {"bet": "Bet", "raise": "Raise to", "complete": "Complete to"}


def asked_post_or_wait(view: TableView) -> bool:
    """The p / w question: back after missing the blinds, or new in a game under way."""
    return view.missed_blinds or view.new_player


def free_seat(view: TableView) -> bool:
    return any(s.status == "empty" and not s.held_for for s in view.seats)


def situation(s) -> str:
    """What the action bar is about now: my turn ("bet", "draw"), a question put to me ("blind",
    "post_or_wait"), or out of turn ("watching", "buy_in", "sitting_out", "waiting")."""
    v, lg = s.view, s.view.legal
    if lg is not None:
        return "draw" if lg.phase == "draw" else "bet"
    if v.my_seat is None:
        return "watching"
    if v.blind_prompt:
        return "blind"
    if asked_post_or_wait(v) and v.buy_in is None:
        return "post_or_wait"
    if v.buy_in is not None:
        return "buy_in"
    return "sitting_out" if v.sitting_out else "waiting"


def question(view: TableView, post_missed: bool | None) -> Text | None:
    """The question the table puts to me now (the blind, or missed blinds), or None; its keys
    (Enter / s, p / w) are in KEYS. post_missed: my answer so far (None: not yet)."""
    if view.status == "reconnecting":      # its host fell silent (bus/liveness.py): say what is kept
        return Text.assemble(("The table is reconnecting", "bold"),
                             ": seats and chips are kept; a hand cut off is void (stacks back)")
    if view.my_seat is None:
        return None
    if view.blind_prompt:
        return Text.assemble((f"Post the blind of {money(view.blind_prompt)}?", "bold"),
                             " [Enter] post  [s] sit out")
    if view.missed_blinds:
        live, dead = view.missed_posts
        cost = f"{money(live)} + {money(dead)} dead" if live else f"{money(dead)} dead"
        t = Text.assemble((f"You missed the {'blinds' if live else 'small blind'}:", "bold"),
                          f"  [p] Post {cost}  [w] Wait for the big blind")
        posting = "   (you will post them)"
    elif view.new_player:
        t = Text.assemble(("New here:", "bold"), "  [p] Post the big blind now  [w] Wait for it")
        posting = "   (you will post)"
    else:
        return None
    if post_missed is not None:
        t.append(posting if post_missed else "   (you will wait)", "italic")
    return t


class Key(NamedTuple):
    """One binding of the table screen.

    when(s, *params): True, the key works; None, shown dimmed (a dimmed betting key still answers,
        through the refused bindings); False, off and not shown. No `when`: always works.
    chip(s, situation): the label of its chip on the action bar now, or None for no chip. Chips
        are drawn in KEYS' order, `lead` ones first; `chip_key` is the key as the chip shows it."""
    key: str
    action: str
    label: str = ""
    when: Callable[..., bool | None] | None = None
    chip: Callable[..., str | None] | None = None
    show: bool = True
    group: Binding.Group | None = None
    chip_key: str = ""
    lead: bool = False

    def binding(self) -> Binding:
        return Binding(self.key, self.action, self.label, show=self.show, group=self.group)


# ---- when each key works (check_action)
def _hold(s, i: int) -> bool | None:
    if not s.is_draw_game:
        return False   # nothing to hold in a game without a draw: not in the footer
    return None if not s.view.my_cards else (i < len(s.view.my_cards) or None)


def _asked_blind(s, post: bool) -> bool:
    return s.view.my_seat is not None and bool(s.view.blind_prompt)


def _asked_post(s, post: bool) -> bool:
    return s.view.my_seat is not None and asked_post_or_wait(s.view) and not s.view.blind_prompt


def _draw(s) -> bool | None:
    lg = s.legal
    return True if (lg is not None and lg.phase == "draw") else (None if s.is_draw_game else False)


def _check(s) -> bool | None:
    lg = s.legal
    if lg is None:
        return None
    return lg.phase == "bet" and lg.check and not lg.bring_in


def _call(s) -> bool:
    lg = s.legal
    return lg is not None and lg.phase == "bet" and not lg.check and lg.can_call and not lg.bring_in


def _wager(s, kind: str) -> bool | None:
    lg = s.legal
    if lg is None or not lg.min_to:
        # Dimmed under the word that fits: facing a bet (capped, or only a call left after
        # a short all-in) it is a raise that cannot be made, not a bet.
        dimmed = "raise" if lg is not None and lg.phase == "bet" and not lg.check else "bet"
        return None if kind == dimmed else False
    return (lg.raise_kind or "bet") == kind


def _sit(s, which: str) -> bool | None:
    if s.view.my_seat is None:
        return None if which == "out" else False
    return (which == "in") == s.view.sitting_out


# ---- the chips: what the action bar offers in each situation
def _bring_in_chip(s, now: str) -> str | None:
    lg = s.legal
    return f"Bring in {s.amount(lg.bring_in)}" if now == "bet" and lg.bring_in else None


def _check_chip(s, now: str) -> str | None:
    lg = s.legal
    return "Check" if now == "bet" and lg.check and not lg.bring_in else None


def _call_chip(s, now: str) -> str | None:
    lg = s.legal
    if now != "bet" or lg.bring_in or lg.check or not lg.can_call:
        return None
    me = s.my_seat_state()
    all_in = " all-in" if me is not None and lg.call >= me.stack else ""
    return f"Call {s.amount(lg.call)}{all_in}"


def _wager_chip(kind: str) -> Callable[..., str | None]:
    def chip(s, now: str) -> str | None:
        lg = s.legal
        if now != "bet" or not lg.min_to or (lg.raise_kind or "bet") != kind:
            return None
        amount = s.amount(lg.min_to) if lg.min_to == lg.max_to else f"{s.amount(lg.min_to)}-{s.amount(lg.max_to)}"
        return f"{VERBS.get(lg.raise_kind, 'Bet')} {amount}"
    return chip


def _draw_chip(s, now: str) -> str | None:
    if now != "draw":
        return None
    n = s.discard_count()
    return "Stand pat" if n == 0 else f"Draw {n}"


def _tap_chip(s, now: str) -> str | None:
    return "Stand pat" if now == "draw" else "Tap" if now == "bet" and s.legal.check else None


def cash(s) -> bool:
    """A cash table: a tournament's seats its players (no join, buy-in, wait list or leaving)."""
    return s.view.tournament is None


def _seat_chip(free: bool, label: str) -> Callable[..., str | None]:
    """Join when a seat is free, else the wait list (not in hot-seat: every seat is someone's)."""
    return lambda s, now: label if (now == "watching" and not s.shared and cash(s)
                                    and free_seat(s.view) == free) else None


def _elsewhere(s) -> bool:
    return s.seated_elsewhere


def _on(shown_in: str, label: str) -> Callable[..., str | None]:
    """A chip with a fixed label, shown in one situation."""
    return lambda s, now: label if now == shown_in else None


# A key with several bindings runs the first one that `when` allows: the blind questions come
# before the other uses of Enter, s and w (and only work while asked).
KEYS = (
    *[Key(str(i + 1), f"hold({i})", "Hold", _hold, group=HOLD,
          chip=_on("draw", "Hold") if i == 0 else None, chip_key="1-5") for i in range(5)],
    Key("enter", "post_blind(True)", "Post blind", _asked_blind,
        lambda s, now: f"Post {money(s.view.blind_prompt)}" if now == "blind" else None),
    Key("enter", "draw", "Draw", _draw, _draw_chip),
    Key("f", "fold", "Fold", lambda s: True if (s.legal is not None and s.legal.fold) else None,
        chip=lambda s, now: "Fold" if now == "bet" and s.legal.fold else None),
    Key("c", "check", "Check", _check, _check_chip),
    Key("c", "call", "Call", _call, _call_chip),
    Key("c", "bring_in", "Bring in", lambda s: s.legal is not None and bool(s.legal.bring_in), _bring_in_chip),
    *[Key("r", f"wager('{kind}')", VERBS[kind].split()[0], _wager, _wager_chip(kind))
      for kind in ("bet", "raise", "complete")],
    Key("space", "tap", "Tap", lambda s: True if s.legal is not None else None, _tap_chip),
    # Last for their keys: a betting key that is dimmed now still answers, saying why (Enter is
    # the draw's key only).
    *[Key(key, f"refused('{kind}')", show=False,
          when=lambda s, kind: kind != "draw" or s.is_draw_game)
      for key, kind in (("f", "fold"), ("c", "call"), ("r", "raise"), ("space", "check"), ("enter", "draw"))],
    *[Key(key, f"auto('{auto}')", label, lambda s, auto: s.view.my_seat is not None, group=AUTO)
      for auto, key, label in AUTO_KEYS],
    Key("j", "join", "Join", lambda s: s.view.my_seat is None and not s.shared and cash(s),
        _seat_chip(True, "Join")),
    Key("p", "post_missed(True)", "Post now", _asked_post,
        lambda s, now: (("Post missed blinds now" if s.view.missed_blinds else "Post a big blind now")
                        if now == "post_or_wait" else None)),
    Key("w", "post_missed(False)", "Wait for big blind", _asked_post, _on("post_or_wait", "Wait for the big blind")),
    Key("w", "wait_list", "Wait list",
        lambda s: s.view.my_seat is None and not s.shared and cash(s) and not free_seat(s.view),
        _seat_chip(False, "Wait list")),
    Key("b", "buy_in", "Buy in", lambda s: s.view.my_seat is not None and s.view.buy_in is not None and cash(s),
        _on("buy_in", "Buy in")),
    # Declining the blind sits me out: the sit-out key, never Esc (Esc also closes the chat box,
    # and a second Esc meant for the box declined the blind, issue 35).
    Key("s", "post_blind(False)", "Sit out", _asked_blind, _on("blind", "Sit out")),
    Key("s", "sit('out')", "Sit out", _sit),
    # Sitting out, one sits in before answering the blinds: its chip comes first.
    Key("s", "sit('in')", "Sit in", _sit, lead=True,
        chip=lambda s, now: "Sit in" if now in ("post_or_wait", "sitting_out") and s.view.sitting_out else None),
    Key("l", "leave", "Leave", lambda s: (True if s.view.my_seat is not None else None) if cash(s) else False),
    Key("t", "chat(False)", "Chat"),
    Key("d", "chat(True)", "Dealer", show=False),
    Key("h", "history", "History"),
    Key("question_mark", "help", "Help"),
    Key("o", "options", "Options"),
    Key("m", "money", "My Money"),
    Key("escape", "lobby", "Lobby", lambda s: not s.shared, show=False),
    Key("right_square_bracket", "next_table", "Next table", _elsewhere),
    Key("ctrl+n", "next_table", "Next table", _elsewhere, show=False),
)
BINDINGS: list[BindingType] = [k.binding() for k in KEYS]
# check_action's answer for each (action, parameters) of KEYS (] and ctrl+n share theirs).
WHEN = {parse(k.action)[1:]: k.when for k in KEYS}


def key_works(s, action: str, parameters: tuple) -> bool | None:
    """check_action for the table screen: what `when` says of the key with that action."""
    when = WHEN.get((action, tuple(parameters)))
    return True if when is None else when(s, *parameters)


def action_items(s) -> tuple[tuple, str]:
    """The action bar: (chips as (key, label, action), the note after them)."""
    now = situation(s)
    chips = [(k, label) for k in KEYS if k.chip is not None and (label := k.chip(s, now)) is not None]
    chips.sort(key=lambda kl: not kl[0].lead)
    return tuple((k.chip_key or k.key, label, k.action) for k, label in chips), _note(s, now)


def _note(s, now: str) -> str:
    v = s.view
    if now == "bet":
        return "Your turn"
    if now == "draw":
        return f"You may draw up to {v.legal.max_draw}"
    if now == "blind":
        return "Post your blind to play this hand"
    if now == "post_or_wait":
        # The line follows the answer given (a play-tester read "Waiting for the big blind"
        # after pressing p); "when you may": not while between the button and the big blind.
        return ("You are sitting out" if v.sitting_out else
                "You will post when you may" if s.post_missed else
                "Waiting for the big blind" if s.post_missed is False else
                "You missed the blinds" if v.missed_blinds else "New here")
    if now == "watching":
        return "Waiting for the next decision" if s.shared else "You are watching"
    if now == "buy_in":
        return "Buy in to play"
    if now == "sitting_out":
        return "You are sitting out"
    acting = next((seat.name for seat in v.seats if seat.number == v.acting_seat), None)
    if acting:
        return f"{acting} to act"
    if v.phase not in ("waiting", "done"):
        return ""
    # A tournament table that is not dealing says why (a break, hand for hand, a pause ...).
    hold = v.tournament.hold if v.tournament is not None else ""
    return hold[:1].upper() + hold[1:] if hold else "Waiting for the next hand"
