"""A table's lobby row (Table.summary): its figures from the last hands, as the lobby shows them."""

from tests.room.conftest import seat_players


def test_a_lobby_row_counts_the_last_hour_and_averages_the_last_hands(make_room):
    room, clock = make_room()
    table = room.tables["T"]
    seat_players(room, "T", ("alice", "bob"))
    table.stats.clear()
    now = clock.now()
    # (when it ended, the pot, players dealt in, players who saw the flop): oldest first.
    for ago, pot, dealt, saw in ((7200, 900, 2, 0), (3601, 300, 3, 3), (3600, 600, 2, 1), (60, 200, 3, 2)):
        table.stats.append((now - ago, pot, dealt, saw))
    row = table.summary()
    assert row.hands_per_hour == 2                  # an hour ago to the second counts, not a second more
    assert row.average_pot == (900 + 300 + 600 + 200) // 4
    assert row.seeing_flop == 100 * 6 // 10
    assert (row.players, row.seats) == (2, table.settings.seats)
    table.stats.clear()
    empty = table.summary()
    assert (empty.hands_per_hour, empty.average_pot, empty.seeing_flop) == (0, 0, 0)
