"""`mjcalc batch`: one bad record spoils only itself, and large records keep memory flat.

A YAML item with a syntax error is its own error row (reading starts again at the next
`- ` at column 0); CSV reads LF, CR LF and a lone CR as line ends; large records come
out whole and in order while the engine bounds the bytes in flight (memory itself is
measured in bench/batch_memory.py, not here). Subprocess tests run the installed package.
"""

from __future__ import annotations

import csv
import io
import json
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pytest
from installed import run_installed

from mahjong_calc.batch import engine, evaluate
from mahjong_calc.batch.items import CSV, LINES, OBJ, RECORD_LIMIT
from mahjong_calc.batch.readers import BLOCK_BYTES, read_items

HAND = "13m456m678m11p555p2m"  # a Wuhu win
TIMEOUT = 300


def _rows(stdout: bytes) -> list[dict[str, Any]]:
    return [json.loads(line) for line in stdout.decode("utf-8").splitlines()]


def _code(row: dict[str, Any]) -> str | None:
    return row["error"]["code"] if row.get("valid") is False and "error" in row else None


# --- YAML: a bad item is its own row ----------------------------------------------------------

BAD_YAML: dict[str, tuple[bytes, str]] = {
    "unclosed_flow": (b"- {id: bad, hand: 123m\n", "bad_yaml"),
    "bad_indent": (b"- id: bad\n   hand: %s\n  dealer: true\n" % HAND.encode(), "bad_yaml"),
    "open_quote_flow": (b'- {id: "bad, hand: %s}\n' % HAND.encode(), "bad_yaml"),
    "open_quote_block": (b"- id: 'bad\n  hand: %s\n" % HAND.encode(), "bad_yaml"),
    "tab_indent": (b"- id: bad\n\thand: %s\n" % HAND.encode(), "bad_yaml"),
    "tab_after_dash": (b"-\t{id: bad, hand: %s}\n" % HAND.encode(), "bad_yaml"),
    "flow_over_1mib": (b"- {id: bad, hand: " + b"1" * RECORD_LIMIT + b"}\n", "record_too_large"),
    "block_over_1mib": (b"- id: bad\n" + b"  # padding\n" * 10 + b"  hand: " + b"1" * RECORD_LIMIT + b"\n",
                        "record_too_large"),
    "many_lines_over_1mib": (b"- id: bad\n  melds:\n" + b"  - 123m\n" * (RECORD_LIMIT // 9), "record_too_large"),
}


@pytest.mark.slow
@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("kind", sorted(BAD_YAML))
def test_a_yaml_item_that_cannot_be_read_is_its_own_row(tmp_path: Path, kind: str, jobs: str) -> None:
    n, at = 1001, 500
    bad, code = BAD_YAML[kind]
    parts = [b"- {id: %d, hand: %s}\n" % (i, HAND.encode()) for i in range(n)]
    parts[at] = bad
    starts = [1 + sum(p.count(b"\n") for p in parts[:i]) for i in range(n)]
    path = tmp_path / "in.yaml"
    path.write_bytes(b"".join(parts))
    done = run_installed(["batch", str(path), "--jobs", jobs], text=False, timeout=TIMEOUT)
    assert done.returncode == 1, done.stderr
    rows = _rows(done.stdout)
    assert [r["line"] for r in rows] == starts
    assert [_code(r) for r in rows] == [code if i == at else None for i in range(n)]
    assert [r["id"] for i, r in enumerate(rows) if i != at] == [i for i in range(n) if i != at]


def _yaml(data: bytes) -> list[tuple[int, str, Any]]:
    return [(line, kind, payload if kind != OBJ else payload.get("id")) for line, kind, payload in
            read_items(io.BytesIO(data), "yaml")]


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        # anchors carry over from item to item, as in one document
        (b"- &a {id: 1, hand: 13m}\n- {id: 2, melds: *b}\n- {id: 3, hand: *x}\n", None),
        (b"- {id: 1, melds: &m [123m]}\n- {id: 2, melds: *m}\n", [(1, "obj", 1), (2, "obj", 2)]),
        # a problem in a comment between items is a row of its own; the items keep theirs
        (b"- {id: 1}\n# \xff\n- {id: 2}\n", [(1, "obj", 1), (2, "err", "bad_encoding"), (3, "obj", 2)]),
        # blank lines and comments inside an item are the item's
        (b"- id: 1\n\n# note\n  hand: 13m\n- {id: 2}\n", [(1, "obj", 1), (5, "obj", 2)]),
        # after more than 1 MiB of comments an item is over: a line that would continue it is a row
        (b"- {id: 1}\n" + (b"# " + b"x" * 1000 + b"\n") * 1100 + b"  hand: 13m\n- {id: 2}\n",
         [(1, "obj", 1), (1102, "err", "bad_yaml"), (1103, "obj", 2)]),
        # a second document is one error row where it starts
        (b"- {id: 1}\n---\n- {id: 2}\n", [(1, "obj", 1), (2, "err", "bad_yaml")]),
        (b"- {id: 1}\n...\n# done\n", [(1, "obj", 1)]),
        # CR-only line ends count as lines in YAML too
        (b"- {id: 1}\r- {id: 2\r- {id: 3}\r", [(1, "obj", 1), (2, "err", "bad_yaml"), (3, "obj", 3)]),
    ],
)
def test_yaml_items_keep_their_own_lines(data: bytes, expected: list[tuple[int, str, Any]] | None) -> None:
    got = [(line, kind, payload[0] if kind == "err" else payload) for line, kind, payload in _yaml(data)]
    if expected is None:  # an alias to an anchor nobody defined spoils its own item only
        assert [(line, kind) for line, kind, _ in got] == [(1, "obj"), (2, "err"), (3, "err")]
    else:
        assert got == expected


def test_a_yaml_syntax_error_names_the_line_inside_its_item() -> None:
    (row,) = read_items(io.BytesIO(b"- id: 1\n  hand: 13m\n  melds: [123m\n"), "yaml")
    assert row[:2] == (1, "err")
    assert row[2][0] == "bad_yaml" and row[2][1].endswith("(line 3)")


# --- CSV: every line end -------------------------------------------------------------------------


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("ends", ["cr", "mixed"])
def test_csv_with_cr_line_ends_gives_a_row_per_record(tmp_path: Path, jobs: str, ends: str) -> None:
    n = 100
    eol = [b"\r"] if ends == "cr" else [b"\r\n", b"\r", b"\n"]
    lines = [b"id,hand"] + [b"%d,%s" % (i, HAND.encode()) for i in range(n)]
    path = tmp_path / "in.csv"
    path.write_bytes(b"".join(line + eol[i % len(eol)] for i, line in enumerate(lines)))
    done = run_installed(["batch", str(path), "--jobs", jobs], text=False, timeout=TIMEOUT)
    assert done.returncode == 0, done.stdout[:300]
    rows = _rows(done.stdout)
    assert [(r["line"], r["id"]) for r in rows] == [(i + 2, str(i)) for i in range(n)]


def test_a_quoted_csv_cell_keeps_its_line_breaks() -> None:
    data = b'id,hand\r"a\r\nb",13m\r"c\rd",13m\r3,13m\r'
    got = [(line, payload["id"]) for line, kind, payload in read_items(io.BytesIO(data), "csv") if kind == CSV]
    assert got == [(2, "a\r\nb"), (4, "c\rd"), (6, "3")]


# --- large records: whole, in order, a bounded number of bytes in flight --------------------------


def _big_jsonl(n: int) -> bytes:
    """`n` records of about 1 MiB: wins padded with spaces, and every third a hand that long (an error)."""
    out = []
    for i in range(n):
        if i % 3 == 2:
            out.append(b'{"id": %d, "hand": "%d' % (i, i) + b"1" * (RECORD_LIMIT - 60) + b'"}\n')
        else:
            head = b'{"id": %d, "hand": "%s"' % (i, HAND.encode())
            out.append(head + b" " * (RECORD_LIMIT - 10 - len(head)) + b"}\n")
    return b"".join(out)


@pytest.mark.slow
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_large_records_all_have_their_rows_in_order(tmp_path: Path, jobs: str) -> None:
    n = 45
    path = tmp_path / "big.jsonl"
    path.write_bytes(_big_jsonl(n))
    done = run_installed(["batch", str(path), "--jobs", jobs], text=False, timeout=TIMEOUT)
    assert done.returncode == 1
    rows = _rows(done.stdout)
    assert [(r["line"], r["id"]) for r in rows] == [(i + 1, i) for i in range(n)]
    assert [_code(r) for r in rows] == ["input_too_long" if i % 3 == 2 else None for i in range(n)]


def test_csv_rows_of_a_megabyte_all_have_their_rows(tmp_path: Path) -> None:
    n = 12
    path = tmp_path / "big.csv"
    path.write_bytes(b"id,hand,wild\n" + b"".join(b"%d,%s," % (i, HAND.encode()) + b"x" * (RECORD_LIMIT - 40) + b"\n"
                                                  for i in range(n)))
    done = run_installed(["batch", str(path), "--jobs", "2", "--format", "csv"], text=False, timeout=TIMEOUT)
    rows = list(csv.DictReader(io.StringIO(done.stdout.decode("utf-8"))))
    assert [(r["line"], r["id"]) for r in rows] == [(str(i + 2), str(i)) for i in range(n)]


def test_json_lines_blocks_are_bounded_in_bytes() -> None:
    items = list(read_items(io.BytesIO(_big_jsonl(20) + b"".join(b'{"id": %d}\n' % i for i in range(2000))), "jsonl"))
    assert all(kind == LINES for _, kind, _ in items)
    assert max(len(payload) for _, _, payload in items) <= BLOCK_BYTES + RECORD_LIMIT
    assert sum(payload.count(b"\n") + 1 for _, _, payload in items) == 2020  # every line, once
    assert [line for line, _, _ in items] == sorted({line for line, _, _ in items})


def test_chunks_of_csv_and_yaml_records_are_bounded_in_bytes() -> None:
    big = "x" * (RECORD_LIMIT // 2)
    items = [(i + 2, CSV, {"id": str(i), "hand": big}) for i in range(40)] + [(50 + i, OBJ, {"id": i, "hand": big})
                                                                            for i in range(40)]
    chunks = list(engine.chunks(items))
    assert [item for chunk in chunks for item in chunk] == items
    assert all(sum(len(item[2]["hand"]) for item in chunk) <= engine.CHUNK_BYTES + RECORD_LIMIT for chunk in chunks)


class _Pool:
    """An executor that runs each chunk at once, in this process, and counts the bytes of the
    chunks handed to it whose results were not yet taken."""

    def __init__(self) -> None:
        self.in_flight = 0
        self.peak = 0

    def submit(self, fn: Any, *args: Any) -> Future[Any]:
        chunk = args[1] if fn is engine.process_chunk_into else args[0]
        size = sum(len(item[2]) for item in chunk)
        self.in_flight += size
        self.peak = max(self.peak, self.in_flight)
        return _Taken(self, size, fn(*args))

    def shutdown(self, wait: bool = True, cancel_futures: bool = False) -> None:
        pass


class _Taken(Future[Any]):
    def __init__(self, pool: _Pool, size: int, value: Any) -> None:
        super().__init__()
        self.pool, self.size = pool, size
        self.set_result(value)

    def result(self, timeout: float | None = None) -> Any:
        self.pool.in_flight -= self.size
        self.size = 0
        return super().result(timeout)


def test_the_engine_bounds_the_bytes_in_flight(monkeypatch: pytest.MonkeyPatch) -> None:
    pool = _Pool()
    monkeypatch.setattr(engine, "_executor", lambda jobs, context: pool)
    n = 60
    out = io.StringIO()
    tally = engine.run_batch(read_items(io.BytesIO(_big_jsonl(n)), "jsonl"), out, "jsonl", jobs=2)
    assert tally.records == n
    assert [row["line"] for row in _rows(out.getvalue().encode())] == list(range(1, n + 1))
    assert pool.in_flight == 0
    assert pool.peak <= engine.IN_FLIGHT_BYTES + engine.CHUNK_BYTES + RECORD_LIMIT


@pytest.mark.parametrize(("most_chunks", "most_bytes"), [(3, 100), (10, 25), (1, 1), (4, 1000)])
def test_in_order_keeps_to_both_bounds(most_chunks: int, most_bytes: int) -> None:
    sizes = [5, 30, 1, 1, 1, 12, 40, 3, 3, 3, 3, 7]
    started: list[int] = []
    finished: list[int] = []

    def start(index: int, chunk: int) -> int:
        started.append(index)
        live = [sizes[i] for i in started if i not in finished]
        assert len(live) <= most_chunks
        assert sum(live) <= most_bytes or len(live) == 1  # a chunk over the budget goes alone
        return index

    def finish(index: int) -> int:
        finished.append(index)
        return index

    got = list(engine.in_order(((s, s) for s in sizes), start, finish, lambda _: None, most_chunks, most_bytes))
    assert got == list(range(len(sizes)))


def test_large_records_are_not_kept_by_the_result_cache() -> None:
    evaluate.clear_outcomes()
    small = json.dumps({"id": 1, "hand": HAND}).encode()
    large = json.dumps({"id": 2, "hand": HAND, "wild": "1" * (evaluate.CACHED_TEXT + 1)}).encode()
    evaluate.evaluate((1, "json", large))
    assert evaluate.outcome_cache_info().currsize == 0
    evaluate.evaluate((2, "json", small))
    assert evaluate.outcome_cache_info().currsize == 1
