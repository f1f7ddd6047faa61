"""Speech: turning a line into a clip (the synthesis engines) and playing a clip.

Every engine and the audio player run in child processes (`child_process`), so
nothing they print reaches the terminal and `stop()` is a real kill. Clips are
cached on disk (`clip_cache`); `platforms` picks the driver and player per laptop.
"""
