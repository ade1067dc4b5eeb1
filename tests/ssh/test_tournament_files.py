"""A player's SFTP folder holds his tournament summaries beside the day's hands: each in the folder
of the day it started, listed, statted and read like the hand files (the folder object the SFTP
server serves, over a real store; the OpenSSH clients' end to end is test_extras.py's)."""

from __future__ import annotations

from cardroom.room.client import LocalClient
from cardroom.room.tournaments.summaries import summaries
from cardroom.ssh.extras import FILES, Extras, Folder, HandsSFTPServer
from tests.room.tournaments.helpers import Bots, room_with, sit_and_go

KEYS = [f"SHA256:{chr(ord('a') + i) * 43}" for i in range(4)]


async def test_the_folder_lists_and_reads_a_tournament_summary_beside_the_hands(tmp_path):
    room, store, clock = room_with(tmp_path, sit_and_go(4, 4))
    clients = [LocalClient(await room.login(f"p{i}", KEYS[i])) for i in range(4)]
    for c in clients:
        await c.register(1)
    t = room.tournaments.get(1)
    assert clock.run_until(Bots(t).done, limit=30_000)
    extras = Extras(store, summaries=lambda s, a: summaries(s, room.tournaments.specs, a, "play"))
    folder = Folder(extras, KEYS[0])
    (day,) = await folder.days()
    files = await folder.files(day)
    assert sorted(files) == sorted([*FILES, "tournament-1.txt"])
    assert files["tournament-1.txt"].decode() == await clients[0].tournament_summary(1)
    server = HandsSFTPServer(None, folder)
    listed = [n.filename async for n in server.scandir(f"/{day.isoformat()}".encode())]
    assert b"tournament-1.txt" in listed
    opened = await server.open(f"/{day.isoformat()}/tournament-1.txt".encode(), 1, None)
    assert server.read(opened, 0, 10 ** 6) == files["tournament-1.txt"]
    # Without the room's summaries (a gateway's extras) the folder holds the hands alone.
    assert sorted(await Folder(Extras(store), KEYS[0]).files(day)) == sorted(FILES)
