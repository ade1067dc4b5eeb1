"""next_session_number (SQLite schema v7's counter, PostgreSQL's sequence `session_numbers`): the
numbers behind one live session per account across gateways. Several stores on one database
stand for several processes."""

import threading

from cardroom.room.ports import SessionStore


def test_session_numbers_increase_and_are_never_given_twice_across_processes(store, open_store):
    assert isinstance(store, SessionStore)
    stores = [store] + [open_store() for _ in range(3)]
    drawn = {i: [] for i in range(len(stores))}
    barrier = threading.Barrier(len(stores))

    def draw(i):
        barrier.wait()
        for _ in range(40):
            drawn[i].append(stores[i].next_session_number())

    threads = [threading.Thread(target=draw, args=(i,)) for i in range(len(stores))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    every = [n for numbers in drawn.values() for n in numbers]
    assert len(set(every)) == len(every) == 160 and min(every) >= 1
    assert all(numbers == sorted(numbers) for numbers in drawn.values())
    # Any number drawn after others were given is greater than all of them, from any store.
    later = [s.next_session_number() for s in stores]
    assert later == sorted(later) and later[0] > max(every)


def test_session_numbers_go_on_after_a_restart(store, open_store):
    first = store.next_session_number()
    store.close()
    again = open_store()
    assert again.next_session_number() > first
