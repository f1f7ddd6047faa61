"""Child process of the kill -9 test: plays random games through the storage API.

Right after each commit returns it prints one JSON line `{"game", "seq", "entry"}`
(the acknowledgement). It resumes whatever `Store.unfinished()` offers, so every
run also exercises resuming after a crash. It never stops by itself: the test
kills it with SIGKILL.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from storage_play import random_entry, random_roster

from moderator.domain.timeline import LogEntry, Undo, entry_to_json
from moderator.storage import SavedGame, Store


def acknowledge(game: SavedGame, entry: LogEntry) -> None:
    line = {"game": game.game_id, "seq": len(game.timeline.log), "entry": entry_to_json(entry)}
    sys.stdout.write(json.dumps(line) + "\n")
    sys.stdout.flush()


def main() -> None:
    data_dir, seed = sys.argv[1], int(sys.argv[2])
    rng = random.Random(seed)
    store = Store.open(data_dir)
    print("READY", flush=True)
    while True:
        resumed = store.unfinished()
        if resumed is None:
            series, game = store.new_series(), None
        else:
            series, game = resumed.series_id, resumed.game
        if game is None:
            game = store.new_game(series, *random_roster(rng))
            acknowledge(game, game.timeline.log[0])
        while True:
            entry = random_entry(game.timeline, rng)
            if entry is None:
                if rng.random() < 0.1:
                    entry = Undo()  # take the results back now and then
                else:
                    break
            game.record(entry)
            acknowledge(game, entry)


if __name__ == "__main__":
    main()
