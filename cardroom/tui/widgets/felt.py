"""The table: seats around an oval-ish grid (clockwise = ascending seat numbers), and in the middle
the board or up cards, the pot and side pots and what the dealer says of the draw."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical

from cardroom.room.api import TableView
from cardroom.tui.options import UIOptions
from cardroom.tui.render import cards_text, money
from cardroom.tui.widgets.lines import TextLines
from cardroom.tui.widgets.seat import Seat


def seat_layout(n: int) -> tuple[list[int], list[int], list[int], list[int]]:
    """(top left->right, right side, bottom right->left, left side) seat numbers, clockwise."""
    seats = list(range(1, n + 1))
    if n <= 4:
        top = (n + 1) // 2
        return seats[:top], [], list(reversed(seats[top:])), []
    top = (n - 1) // 2
    bottom = n - 2 - top
    return (seats[:top], [seats[top]], list(reversed(seats[top + 1:top + 1 + bottom])),
            [seats[-1]])


class Center(TextLines):
    DEFAULT_CSS = """
    Center { width: 1fr; height: 3; }
    """
    ALIGN = "center"

    def __init__(self, opts: UIOptions, **kw) -> None:
        super().__init__(**kw)
        self.opts = opts
        self._key = None

    def show(self, view: TableView) -> None:
        key = (view.board, view.pots, view.phase, view.street, view.status, view.game)
        if key != self._key:
            self._key = key
            self.redraw()

    def text_lines(self, width: int, height: int) -> list[Text]:
        if self._key is None:
            return []
        board, pots, phase, street, status, game = self._key
        lines = []
        if board:
            lines.append(cards_text(board, self.opts))
        else:
            lines.append(Text(game, "italic"))
        if pots:
            t = Text(f"Pot {money(pots[0])}", "bold")
            for i, p in enumerate(pots[1:], 1):
                t.append(f"  side pot {i}: {money(p)}")
            lines.append(t)
        elif phase == "waiting":
            lines.append(Text("waiting for players" if status == "open" else f"table {status}", "italic"))
        else:
            lines.append(Text(""))
        if phase in ("bet", "draw", "showdown"):
            lines.append(Text(f"{street} - {'draw' if phase == 'draw' else phase}", "dim"))
        return [Text()] * max(0, (height - len(lines)) // 2) + lines     # centred, as the CSS was

    def restyle(self) -> None:
        self.redraw()


class Felt(Vertical):
    DEFAULT_CSS = """
    Felt { height: auto; background: $success 12%; }
    Felt > Horizontal { height: auto; }
    """

    def __init__(self, seats: int, opts: UIOptions, **kw) -> None:
        super().__init__(**kw)
        self.n = seats
        self.opts = opts

    def compose(self) -> ComposeResult:
        top, right, bottom, left = seat_layout(self.n)
        with Horizontal(id="felt-top"):
            for n in top:
                yield Seat(n, self.opts, id=f"seat-{n}")
        with Horizontal(id="felt-middle"):
            for n in left:
                yield Seat(n, self.opts, id=f"seat-{n}", classes="side")
            yield Center(self.opts, id="center")
            for n in right:
                yield Seat(n, self.opts, id=f"seat-{n}", classes="side")
        with Horizontal(id="felt-bottom"):
            for n in bottom:
                yield Seat(n, self.opts, id=f"seat-{n}")

    def show(self, view: TableView) -> None:
        for s in view.seats:
            try:
                w = self.query_one(f"#seat-{s.number}", Seat)
            except Exception:
                continue
            w.show(s, s.number == view.my_seat, view.draw_counts.get(s.number))
        self.query_one(Center).show(view)

    def restyle(self) -> None:
        for w in self.query(Seat):
            w.restyle()
        self.query_one(Center).restyle()
