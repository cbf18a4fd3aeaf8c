"""Row batches that cross processes: an import's rows built in a worker, made Arrow there and
sent back serialized (Arrow IPC), so the process that loads them does no row work at all.

A worker of ``import --jobs N`` on the compiled core reads a part of a file's bytes, replays
its games and fills a :class:`PackingBatch` (a :class:`~pdnkit.rows.batch.ReportBatch`
whose games all stay in it, the part's first included); :meth:`PackingBatch.packed` turns it
into a :class:`PackedBatch`: one Arrow IPC stream a table, the board layouts its ``layout``
columns number and the counters the import sums. Pickling one costs the worker a copy of
bytes, and unpickling one costs the parent as little: no Python object a game or a ply.

What the worker cannot know is left to the process that loads the batch: the games' place in
the file (``game_index``: :meth:`PackedBatch.shift_game_index`, applied when the tables are
read back), their ``game_id`` and ``file_id`` (added by :func:`pdnkit.rows.load.load_batch`
as for any batch) and the database's numbers of the layouts (the same).

Example:
    >>> import pickle
    >>> from pdnkit.validation import validate
    >>> batch = PackingBatch()
    >>> for rep in validate('[GameType "20"] 1. 32-28 19-23 *\\n\\n1. 33-29 *', compact=True):
    ...     _ = batch.add(rep)
    >>> packed = pickle.loads(pickle.dumps(batch.packed()))
    >>> packed.shift_game_index(10)
    >>> tables = packed.to_arrow()
    >>> packed.games_count, tables["games"].column("game_index").to_pylist()
    (2, [10, 11])
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pdnkit.rows.batch import ReportBatch

if TYPE_CHECKING:
    import pyarrow as pa

    from pdnkit.rows.bitboards import BoardLayout

#: the tables of a batch whose ``game_index`` is the game's place in its file
_INDEXED = ("games", "findings")


def _ipc(table: pa.Table) -> bytes:
    """``table`` as the bytes of one Arrow IPC stream."""
    from pdnkit._arrow import pyarrow_module

    pa = pyarrow_module()
    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, table.schema) as writer:
        writer.write_table(table)
    return bytes(sink.getvalue().to_pybytes())


def _table(data: bytes) -> pa.Table:
    """The table of one Arrow IPC stream (its buffers read in place, not copied)."""
    from pdnkit._arrow import pyarrow_module

    pa = pyarrow_module()
    with pa.ipc.open_stream(pa.py_buffer(data)) as reader:
        return reader.read_all()


class PackedBatch:
    """A row batch as Arrow IPC bytes, with what the loader and the import's summary need
    besides: ``layouts`` (the board layouts its ``layout`` columns number), the counts of its
    games, move rows, findings and replayed plies, its status and finding-code counters, the
    file's encoding and the characters of its games' texts (``text_chars``, for the progress
    bar). Its games are numbered from 0 (``game_id`` and ``game_index``) until
    :meth:`shift_game_index`; it is :meth:`full` from the start (handed on as it is).

    Example:
        >>> b = PackingBatch().packed()
        >>> b.games_count, b.full(), sorted(b.to_arrow())[:2]
        (0, True, ['findings', 'games'])
    """

    def __init__(self, tables: dict[str, bytes], layouts: list[BoardLayout], *,
                 games: int, plies: int, findings: int, replayed: int,
                 status_counts: dict[str, int], code_counts: dict[str, int],
                 encoding: str | None, text_chars: int) -> None:
        self.tables = tables
        self.layouts = layouts
        self.games_total = games
        self.plies_count = plies
        self.findings_count = findings
        self.replayed_count = replayed
        self.status_counts = status_counts
        self.code_counts = code_counts
        self.encoding = encoding
        self.text_chars = text_chars
        #: added to every ``game_index`` when the tables are read back
        self.index_base = 0

    @property
    def games_count(self) -> int:
        """Games in the batch."""
        return self.games_total

    def full(self) -> bool:
        """Always true: a packed batch is loaded as it came."""
        return True

    def add(self, report: Any) -> int:
        """A packed batch takes no more games (a :class:`TypeError`)."""
        raise TypeError("a packed batch takes no more games")

    def shift_game_index(self, base: int) -> None:
        """Add ``base`` to every game's and finding's ``game_index`` (the games before the
        batch in its file), applied by :meth:`to_arrow`."""
        self.index_base += base

    def to_arrow(self) -> dict[str, pa.Table]:
        """The tables, as :meth:`pdnkit.rows.batch.ReportBatch.to_arrow` gives them, with
        the ``game_index`` shift applied."""
        import pyarrow.compute as pc

        out = {name: _table(data) for name, data in self.tables.items()}
        if self.index_base:
            for name in _INDEXED:
                t = out[name]
                at = t.schema.get_field_index("game_index")
                col = pc.add(t.column(at), self.index_base).cast(t.schema.field(at).type)
                out[name] = t.set_column(at, t.schema.field(at), col)
        return out


class PackingBatch(ReportBatch):
    """A :class:`~pdnkit.rows.batch.ReportBatch` that a worker sends back packed
    (:meth:`packed`): what an import hands :func:`pdnkit.validation.flow.run` as its rows, so
    that on the compiled core its workers build the Arrow tables themselves. A part's first
    game goes into the batch as every other (the part's work knows it by :meth:`packed`).

    Example:
        >>> PackingBatch().packed().games_count
        0
    """

    def packed(self) -> PackedBatch:
        """The batch made Arrow and serialized (:class:`PackedBatch`)."""
        tables = {name: _ipc(t) for name, t in self.to_arrow().items()}
        return PackedBatch(
            tables, list(self.layouts), games=self.games_count, plies=self.plies_count,
            findings=self.findings_count, replayed=self.replayed_count,
            status_counts=dict(self.status_counts), code_counts=dict(self.code_counts),
            encoding=self.encoding,
            text_chars=sum(len(t) for t in self.games["raw_pdn"] if t))


__all__ = ["PackedBatch", "PackingBatch"]
