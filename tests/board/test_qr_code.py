"""The QR code in half blocks draws exactly segno's modules, and fits at 80x24."""

from __future__ import annotations

import segno

from moderator.tui.widgets.qr_code import qr_rows

#: The longest board address: an IPv4 address and a five-digit port, a 22-character token.
LONGEST = "http://192.168.100.200:65535/b/BVjwcX-Lju_hq6PYc4kgaQ/"

_TOP = {" ": (False, False), "▀": (True, False), "▄": (False, True), "█": (True, True)}


def test_the_half_blocks_read_back_as_the_codes_modules() -> None:
    rows = qr_rows(LONGEST, border=2)
    light: list[list[bool]] = [[], []]
    grid: list[list[bool]] = []
    for row in rows:
        light = [[_TOP[c][0] for c in row], [_TOP[c][1] for c in row]]
        grid.extend(light)
    matrix = segno.make(LONGEST, error="l", micro=False).matrix
    size = len(matrix)
    assert len(rows[0]) == size + 4
    for y in range(size):
        assert [not grid[y + 2][x + 2] for x in range(size)] == [bool(m) for m in matrix[y]]
    # The quiet zone is light all round.
    assert all(grid[0]) and all(grid[1]) and all(row[0] and row[1] for row in grid)


def test_the_longest_address_fits_at_80x24() -> None:
    rows = qr_rows(LONGEST)
    assert len(rows) <= 20 and max(map(len, rows)) <= 41
