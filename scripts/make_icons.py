"""Draw fivecard's app icons: a white card with a spade on the felt's
green, as an SVG and as PNG at 192 and 512 pixels, each also "maskable"
(the whole square filled, the card within the middle circle a launcher
may cut it to). One drawing (:data:`SHAPES`) makes all of them: the SVG
says it as shapes, and the PNGs are painted from the same shapes here, in
pure Python (scanlines with 4 samples a pixel, written with zlib), so that
running the script again changes nothing.

Run from the checkout: ``python scripts/make_icons.py``; it writes
``src/fivecard/web/static/icon.svg``, ``icon-192.png``, ``icon-512.png``,
``icon-maskable-192.png`` and ``icon-maskable-512.png`` (the web app's
manifest, ``/manifest.webmanifest``, names them).
"""

from __future__ import annotations

import math
import struct
import sys
import zlib
from collections.abc import Sequence
from pathlib import Path

FOLDER = Path(__file__).resolve().parent.parent / "src" / "fivecard" / "web" / "static"

#: The drawing's square: every shape is in these units.
BOX = 512
FELT = "#14532d"  # the table's felt (app.css --felt): the manifest's theme colour
CARD = "#ffffff"
INK = "#111827"  # app.css --ink

Point = tuple[float, float]
#: A path: a start point and cubic Bézier segments (three points each).
Path_ = tuple[Point, list[tuple[Point, Point, Point]]]

# The spade, in a square from -1 to 1 (y down): an upturned heart and a stem.
_BODY: Path_ = (
    (0.0, -1.0),
    [
        ((-0.25, -0.6), (-0.9, -0.35), (-0.9, 0.12)),
        ((-0.9, 0.45), (-0.62, 0.62), (-0.38, 0.62)),
        ((-0.2, 0.62), (-0.07, 0.52), (0.0, 0.4)),
        ((0.07, 0.52), (0.2, 0.62), (0.38, 0.62)),
        ((0.62, 0.62), (0.9, 0.45), (0.9, 0.12)),
        ((0.9, -0.35), (0.25, -0.6), (0.0, -1.0)),
    ],
)
_STEM: Path_ = (
    (0.0, 0.3),
    [
        ((-0.02, 0.6), (-0.12, 0.85), (-0.32, 1.0)),
        ((-0.1, 1.0), (0.1, 1.0), (0.32, 1.0)),
        ((0.12, 0.85), (0.02, 0.6), (0.0, 0.3)),
    ],
)


class Shape:
    """A filled shape: a rounded rectangle (``rect``: x, y, width, height,
    corner radius) or a closed path (``path``), in one colour."""

    def __init__(self, colour: str, rect: tuple[float, float, float, float, float] | None = None,
                 path: Path_ | None = None) -> None:  # fmt: skip
        self.colour, self.rect, self.path = colour, rect, path

    def scaled(self, k: float, centre: float = BOX / 2) -> Shape:
        """The shape scaled by ``k`` about the drawing's centre."""
        def at(p: Point) -> Point:
            return (centre + (p[0] - centre) * k, centre + (p[1] - centre) * k)

        if self.rect is not None:
            x, y, w, h, r = self.rect
            (x2, y2) = at((x, y))
            return Shape(self.colour, rect=(x2, y2, w * k, h * k, r * k))
        assert self.path is not None
        start, segments = self.path
        return Shape(self.colour, path=(at(start), [(at(a), at(b), at(c)) for a, b, c in segments]))

    def svg(self) -> str:
        if self.rect is not None:
            x, y, w, h, r = self.rect
            return f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}" rx="{_n(r)}" fill="{self.colour}"/>'
        assert self.path is not None
        start, segments = self.path
        d = f"M{_n(start[0])} {_n(start[1])}" + "".join(
            "C" + " ".join(f"{_n(p[0])} {_n(p[1])}" for p in segment) for segment in segments
        )
        return f'<path d="{d}Z" fill="{self.colour}"/>'

    def outline(self, scale: float) -> list[Point]:
        """The shape's outline as a polygon, in pixels (``scale`` pixels a unit)."""
        points: list[Point] = []
        if self.rect is not None:
            x, y, w, h, r = self.rect
            corners = ((x + w - r, y + r, -90), (x + w - r, y + h - r, 0), (x + r, y + h - r, 90), (x + r, y + r, 180))
            for cx, cy, start in corners:
                for i in range(17):
                    angle = math.radians(start + 90 * i / 16)
                    points.append((cx + r * math.cos(angle), cy + r * math.sin(angle)))
        else:
            assert self.path is not None
            current, segments = self.path
            points.append(current)
            for a, b, c in segments:
                for i in range(1, 25):
                    t = i / 24
                    u = 1 - t
                    points.append((
                        u * u * u * current[0] + 3 * u * u * t * a[0] + 3 * u * t * t * b[0] + t * t * t * c[0],
                        u * u * u * current[1] + 3 * u * u * t * a[1] + 3 * u * t * t * b[1] + t * t * t * c[1],
                    ))  # fmt: skip
                current = c
        return [(px * scale, py * scale) for px, py in points]


def _n(value: float) -> str:
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _spade(path: Path_, size: float, cx: float, cy: float) -> Path_:
    start, segments = path

    def at(p: Point) -> Point:
        return (cx + p[0] * size, cy + p[1] * size)

    return (at(start), [(at(a), at(b), at(c)) for a, b, c in segments])


#: The card: 3 by 4, on the felt; the spade in its middle.
_CARD_SHAPES = [
    Shape(CARD, rect=(112.0, 64.0, 288.0, 384.0, 36.0)),
    Shape(INK, path=_spade(_BODY, 112.0, 256.0, 244.0)),
    Shape(INK, path=_spade(_STEM, 112.0, 256.0, 244.0)),
]
#: The icon: the felt as a rounded square, the card on it.
SHAPES = [Shape(FELT, rect=(0.0, 0.0, 512.0, 512.0, 96.0)), *_CARD_SHAPES]
#: The maskable icon: the felt fills the square; the card is within the
#: middle circle of 80% of its width, which every launcher's mask keeps.
MASKABLE = [Shape(FELT, rect=(0.0, 0.0, 512.0, 512.0, 0.0)), *(s.scaled(0.75) for s in _CARD_SHAPES)]


def svg(shapes: Sequence[Shape]) -> str:
    body = "".join(shape.svg() for shape in shapes)
    return f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {BOX} {BOX}">{body}</svg>\n'


def _coverage(polygon: list[Point], size: int, samples: int = 4) -> dict[int, list[float]]:
    """How much of each pixel the polygon covers (even-odd), by rows: 
    ``samples`` scanlines a row, each span's ends counted in fractions."""
    rows: dict[int, list[float]] = {}
    edges = []
    for (x0, y0), (x1, y1) in zip(polygon, polygon[1:] + polygon[:1]):
        if y0 != y1:
            edges.append((x0, y0, x1, y1) if y0 < y1 else (x1, y1, x0, y0))
    weight = 1.0 / samples
    for row in range(size):
        top, bottom = row, row + 1
        live = [e for e in edges if e[1] < bottom and e[3] > top]
        if not live:
            continue
        line = rows.setdefault(row, [0.0] * size)
        for s in range(samples):
            y = row + (s + 0.5) / samples
            xs = sorted(x0 + (y - y0) * (x1 - x0) / (y1 - y0) for x0, y0, x1, y1 in live if y0 <= y < y1)
            for a, b in zip(xs[::2], xs[1::2]):
                a, b = max(a, 0.0), min(b, float(size))
                if b <= a:
                    continue
                first, last = int(a), min(int(b), size - 1)
                if first == last:
                    line[first] += (b - a) * weight
                    continue
                line[first] += (first + 1 - a) * weight
                for x in range(first + 1, last):
                    line[x] += weight
                if last < size:
                    line[last] += (b - last) * weight
    return rows


def paint(shapes: Sequence[Shape], size: int) -> bytes:
    """The shapes painted on a transparent square of ``size`` pixels: RGBA rows."""
    pixels = [[0.0, 0.0, 0.0, 0.0] for _ in range(size * size)]  # premultiplied
    for shape in shapes:
        red, green, blue = (int(shape.colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
        for row, line in _coverage(shape.outline(size / BOX), size).items():
            base = row * size
            for x, amount in enumerate(line):
                if amount <= 0.0:
                    continue
                alpha = min(amount, 1.0)
                p = pixels[base + x]
                keep = 1.0 - alpha
                p[0] = red * alpha + p[0] * keep
                p[1] = green * alpha + p[1] * keep
                p[2] = blue * alpha + p[2] * keep
                p[3] = alpha + p[3] * keep
    out = bytearray()
    for row in range(size):
        out.append(0)  # the row's filter: none
        for r, g, b, a in pixels[row * size : (row + 1) * size]:
            if a <= 0.0:
                out += b"\0\0\0\0"
            else:
                out += bytes((round(r / a * 255), round(g / a * 255), round(b / a * 255), round(a * 255)))
    return bytes(out)


def png(shapes: Sequence[Shape], size: int) -> bytes:
    """A PNG file (8-bit RGBA) of the shapes at ``size`` by ``size`` pixels."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)
    data = zlib.compress(paint(shapes, size), 9)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", data) + chunk(b"IEND", b"")


def icons() -> dict[str, bytes]:
    """Every icon file by its name."""
    files = {"icon.svg": svg(SHAPES).encode()}
    for size in (192, 512):
        files[f"icon-{size}.png"] = png(SHAPES, size)
        files[f"icon-maskable-{size}.png"] = png(MASKABLE, size)
    return files


def main(argv: Sequence[str]) -> int:
    folder = Path(argv[0]) if argv else FOLDER
    for name, content in icons().items():
        (folder / name).write_bytes(content)
        print(f"{folder / name}: {len(content):,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
