"""The app's real synthesis child, over a stand-in OS layer (see `standins`).

Run as a script by the driver tests: installs the stand-in modules named by
the world file in $MINDFLAYER_STANDIN_WORLD, then hands over to
`moderator.narration.speech.synth_worker.main` with this process' arguments.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from standins import WORLD_ENV, install_world

if __name__ == "__main__":
    install_world(Path(os.environ[WORLD_ENV]))
    from moderator.narration.speech.synth_worker import main

    sys.exit(main(sys.argv[1:]))
