"""The output formats of bulk work, and which one a file name asks for
(light: the command line reads it before anything heavy is loaded)."""

from __future__ import annotations

from typing import Final

__all__ = ["OUTPUT_FORMATS", "BINARY_FORMATS", "output_format"]

OUTPUT_FORMATS: Final = ("text", "jsonl", "csv", "xlsx", "parquet")
BINARY_FORMATS: Final = ("xlsx", "parquet")


def output_format(path: str | None, requested: str | None) -> str:
    """The output format: ``requested``, else by the output file's extension,
    else text (the default on a terminal, and for standard output)."""
    if requested:
        return requested
    if path and path != "-":
        suffix = path.rpartition(".")[2].lower() if "." in path else ""
        return {"jsonl": "jsonl", "json": "jsonl", "csv": "csv", "xlsx": "xlsx", "parquet": "parquet"}.get(
            suffix, "text"
        )
    return "text"
